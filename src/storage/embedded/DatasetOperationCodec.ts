import type { DatasetOperation, GraphTarget } from './DatasetOperation';

const TYPE_UPDATE = 1;
const TYPE_GRAPH_ADD = 2;
const TYPE_GRAPH_REPLACE = 3;
const TYPE_GRAPH_DROP = 4;

interface GraphHeader {
  readonly target: GraphTarget;
  readonly format?: string;
  readonly baseIri?: string;
}

/**
 * Turns operations into log payloads and back. SPARQL updates (the hot path)
 * are a type byte plus UTF-8 text; the rarer Graph Store operations carry a
 * small JSON header followed by the untouched request body.
 */
export class DatasetOperationCodec {
  public encode(operation: DatasetOperation): Buffer {
    if (operation.kind === 'update') {
      const length = Buffer.byteLength(operation.sparql);
      const payload = Buffer.allocUnsafe(1 + length);
      payload[0] = TYPE_UPDATE;
      payload.write(operation.sparql, 1, length, 'utf8');
      return payload;
    }
    const header: GraphHeader = operation.kind === 'graphDrop' ?
      { target: operation.target } :
      { target: operation.target, format: operation.format, baseIri: operation.baseIri };
    const headerBytes = Buffer.from(JSON.stringify(header), 'utf8');
    const body = operation.kind === 'graphDrop' ? Buffer.alloc(0) : operation.body;
    const payload = Buffer.allocUnsafe(5 + headerBytes.length + body.length);
    payload[0] = operation.kind === 'graphAdd' ? TYPE_GRAPH_ADD :
      operation.kind === 'graphReplace' ? TYPE_GRAPH_REPLACE : TYPE_GRAPH_DROP;
    payload.writeUInt32LE(headerBytes.length, 1);
    headerBytes.copy(payload, 5);
    body.copy(payload, 5 + headerBytes.length);
    return payload;
  }

  public decode(payload: Buffer): DatasetOperation {
    const type = payload[0];
    if (type === TYPE_UPDATE) {
      return { kind: 'update', sparql: payload.toString('utf8', 1) };
    }
    if (type !== TYPE_GRAPH_ADD && type !== TYPE_GRAPH_REPLACE && type !== TYPE_GRAPH_DROP) {
      throw new Error(`Unknown log record type ${String(type)}`);
    }
    const headerLength = payload.readUInt32LE(1);
    const header = JSON.parse(payload.toString('utf8', 5, 5 + headerLength)) as GraphHeader;
    if (type === TYPE_GRAPH_DROP) {
      return { kind: 'graphDrop', target: header.target };
    }
    return {
      kind: type === TYPE_GRAPH_ADD ? 'graphAdd' : 'graphReplace',
      target: header.target,
      format: header.format ?? 'application/n-triples',
      baseIri: header.baseIri,
      body: payload.subarray(5 + headerLength),
    };
  }
}
