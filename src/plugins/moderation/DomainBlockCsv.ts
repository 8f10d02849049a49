import { parseCsv } from '../../util/Csv';
import { badRequest } from '../../util/HttpErrors';
import type { DomainBlock, DomainBlockInput, DomainSeverity } from './DomainBlocks';
import { DOMAIN_SEVERITIES } from './DomainBlocks';

/** Mastodon's export of domain blocks (Moderation > Federation > Export), which it imports too. */
export const DOMAIN_BLOCK_CSV_HEADER = '#domain,#severity,#reject_media,#reject_reports,#public_comment,#obfuscate';

const MAX_ROWS = 100_000;

function field(value: string): string {
  return /[",\r\n]/u.test(value) ? `"${value.replace(/"/gu, '""')}"` : value;
}

/** The blocks as Mastodon's CSV (private comments are not exported, as on Mastodon). */
export function domainBlocksToCsv(blocks: readonly DomainBlock[]): string {
  const lines = blocks.map((block): string => [ block.domain, block.severity, String(block.rejectMedia),
    String(block.rejectReports), block.publicComment ?? '', String(block.obfuscate) ].map(field).join(','));
  return `${[ DOMAIN_BLOCK_CSV_HEADER, ...lines ].join('\n')}\n`;
}

const truthy = (value: string | undefined): boolean => [ 'true', '1', 'yes' ].includes((value ?? '').trim().toLowerCase());

/**
 * The blocks of Mastodon's CSV: with its header line (columns in any order, `#domain` needed), or
 * without one (a plain list of domains, one a line, suspended as Mastodon takes it). 400 on a row
 * with an unknown severity.
 */
export function domainBlocksFromCsv(text: string): DomainBlockInput[] {
  const rows = parseCsv(text).map((row): string[] => row.cells);
  if (rows.length > MAX_ROWS) {
    throw badRequest(`At most ${MAX_ROWS} rows are imported at once.`, 'invalid_csv');
  }
  const header = rows[0]?.map((cell): string => cell.trim().toLowerCase());
  const hasHeader = header?.some((cell): boolean => cell.startsWith('#'));
  const column = (name: string): number => (hasHeader ? header!.indexOf(`#${name}`) : name === 'domain' ? 0 : -1);
  if (hasHeader && column('domain') < 0) {
    throw badRequest('The CSV header has no #domain column.', 'invalid_csv');
  }
  return (hasHeader ? rows.slice(1) : rows).map((cells, index): DomainBlockInput => {
    const cell = (name: string): string | undefined => {
      const at = column(name);
      return at >= 0 ? cells[at]?.trim() : undefined;
    };
    const severity = (cell('severity') || 'suspend').toLowerCase();
    if (!DOMAIN_SEVERITIES.includes(severity as DomainSeverity)) {
      throw badRequest(`Row ${index + 1}: unknown severity ${JSON.stringify(severity.slice(0, 20))}.`, 'invalid_csv');
    }
    const publicComment = cell('public_comment');
    return {
      domain: cell('domain') ?? '',
      severity: severity as DomainSeverity,
      rejectMedia: truthy(cell('reject_media')),
      rejectReports: truthy(cell('reject_reports')),
      obfuscate: truthy(cell('obfuscate')),
      ...publicComment ? { publicComment } : {},
    };
  });
}
