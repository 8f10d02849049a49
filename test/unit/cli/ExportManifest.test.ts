import { UsageError } from '../../../src/cli/Console';
import { filePath, manifestOf, parseManifest, shownEndpoint } from '../../../src/cli/ExportManifest';

const counts = {
  fedpodVersion: '1.2.3',
  source: { store: 'embedded', dataset: 'localData', method: 'files' as const },
  quads: 10,
  graphs: 4,
  defaultGraphQuads: 0,
  blankNodeQuads: 0,
  files: 1,
  fileBytes: 99,
  missingFiles: [],
};

describe('ExportManifest', (): void => {
  it('reads back the manifest it writes', (): void => {
    const manifest = manifestOf(counts, new Date('2026-01-02T03:04:05.000Z'));
    expect(manifest.created).toBe('2026-01-02T03:04:05.000Z');
    expect(parseManifest(JSON.stringify(manifest), 'm.json')).toEqual(manifest);
  });

  it('refuses what is not a manifest of this format, saying why', (): void => {
    const manifest = manifestOf(counts);
    expect((): unknown => parseManifest('{', 'm.json')).toThrow(/not JSON/u);
    expect((): unknown => parseManifest('{"format":"other"}', 'm.json')).toThrow(/not the manifest of a fedpod export/u);
    expect((): unknown => parseManifest(JSON.stringify({ ...manifest, formatVersion: 2 }), 'm.json')).toThrow(/format version 2/u);
    expect((): unknown => parseManifest(JSON.stringify({ ...manifest, quads: -1 }), 'm.json')).toThrow(/quads is not a count/u);
    expect((): unknown => parseManifest(JSON.stringify({ ...manifest, files: '1' }), 'm.json')).toThrow(/files is not a count/u);
    expect((): unknown => parseManifest(JSON.stringify({ ...manifest, missingFiles: [ 1 ]}), 'm.json')).toThrow(UsageError);
  });

  it('places files as ResourceFiles does, and shows endpoints without credentials', (): void => {
    expect(filePath('/d', '0123456789abcdef0123456789abcdef')).toBe('/d/files/01/23/0123456789abcdef0123456789abcdef');
    expect(shownEndpoint('http://admin:secret@store:3030/')).toBe('http://store:3030/');
  });
});
