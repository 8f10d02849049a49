/**
 * The parts of RFC 8941 (Structured Field Values for HTTP) that HTTP Message Signatures
 * (RFC 9421) and Content-Digest (RFC 9530) need: parsing Dictionaries whose members are Items or
 * Inner Lists, and serializing Items, Parameters and Inner Lists exactly (the signature base of
 * RFC 9421 is built from the canonical serialization, so a verifier re-serializes what it parsed).
 *
 * Everything that does not match the grammar throws `StructuredFieldError`; callers that must not
 * throw catch it.
 */

export type BareItem =
  | { readonly type: 'integer'; readonly value: number }
  | { readonly type: 'decimal'; readonly value: number }
  | { readonly type: 'string'; readonly value: string }
  | { readonly type: 'token'; readonly value: string }
  | { readonly type: 'binary'; readonly value: Buffer }
  | { readonly type: 'boolean'; readonly value: boolean };

/** Ordered, as parsed (a duplicated key keeps its first position and its last value). */
export type SfParameters = Map<string, BareItem>;

export interface SfItem {
  readonly value: BareItem;
  readonly params: SfParameters;
}

export interface SfInnerList {
  readonly items: SfItem[];
  readonly params: SfParameters;
}

export type SfMember = SfItem | SfInnerList;
export type SfDictionary = Map<string, SfMember>;

export class StructuredFieldError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'StructuredFieldError';
  }
}

export function isInnerList(member: SfMember): member is SfInnerList {
  return 'items' in member;
}

const MAX_INTEGER = 999_999_999_999_999;
const KEY_FIRST = /^[a-z*]$/u;
const KEY_CHAR = /^[a-z0-9_\-.*]$/u;
const TOKEN_FIRST = /^[A-Za-z*]$/u;
// tchar (RFC 9110) plus ":" and "/".
const TOKEN_CHAR = /^[!#$%&'*+\-.^_`|~0-9A-Za-z:/]$/u;
const PLAIN_STRING = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/u;
const TOKEN = /^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*$/u;
const KEY = /^[a-z*][a-z0-9_\-.*]*$/u;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/u;

class Parser {
  private pos = 0;

  public constructor(private readonly input: string) {}

  public parseDictionary(): SfDictionary {
    const dict: SfDictionary = new Map();
    this.skipSp();
    if (this.atEnd()) {
      return dict;
    }
    for (;;) {
      const key = this.parseKey();
      let member: SfMember;
      if (this.peek() === '=') {
        this.pos += 1;
        member = this.parseItemOrInnerList();
      } else {
        member = { value: { type: 'boolean', value: true }, params: this.parseParameters() };
      }
      dict.set(key, member);
      this.skipOws();
      if (this.atEnd()) {
        return dict;
      }
      this.expect(',');
      this.skipOws();
      if (this.atEnd()) {
        throw new StructuredFieldError('Trailing comma in dictionary');
      }
    }
  }

  public parseItemOnly(): SfItem {
    this.skipSp();
    const item = this.parseItem();
    this.skipSp();
    return item;
  }

  public finish(): void {
    this.skipSp();
    if (!this.atEnd()) {
      throw new StructuredFieldError(`Unexpected character at ${this.pos}`);
    }
  }

  private parseItemOrInnerList(): SfMember {
    return this.peek() === '(' ? this.parseInnerList() : this.parseItem();
  }

  private parseInnerList(): SfInnerList {
    this.expect('(');
    const items: SfItem[] = [];
    for (;;) {
      this.skipSp();
      if (this.peek() === ')') {
        this.pos += 1;
        return { items, params: this.parseParameters() };
      }
      items.push(this.parseItem());
      const next = this.peek();
      if (next !== ' ' && next !== ')') {
        throw new StructuredFieldError(`Expected space or ")" in inner list at ${this.pos}`);
      }
    }
  }

  private parseItem(): SfItem {
    const value = this.parseBareItem();
    return { value, params: this.parseParameters() };
  }

  private parseParameters(): SfParameters {
    const params: SfParameters = new Map();
    while (this.peek() === ';') {
      this.pos += 1;
      this.skipSp();
      const key = this.parseKey();
      let value: BareItem = { type: 'boolean', value: true };
      if (this.peek() === '=') {
        this.pos += 1;
        value = this.parseBareItem();
      }
      params.set(key, value);
    }
    return params;
  }

  private parseKey(): string {
    const start = this.pos;
    if (!KEY_FIRST.test(this.peek())) {
      throw new StructuredFieldError(`Expected a key at ${this.pos}`);
    }
    this.pos += 1;
    while (!this.atEnd() && KEY_CHAR.test(this.peek())) {
      this.pos += 1;
    }
    return this.input.slice(start, this.pos);
  }

  private parseBareItem(): BareItem {
    const c = this.peek();
    if (c === '-' || (c >= '0' && c <= '9')) {
      return this.parseNumber();
    }
    if (c === '"') {
      return this.parseString();
    }
    if (c === ':') {
      return this.parseBinary();
    }
    if (c === '?') {
      return this.parseBoolean();
    }
    if (TOKEN_FIRST.test(c)) {
      return this.parseToken();
    }
    throw new StructuredFieldError(`Unexpected character at ${this.pos}`);
  }

  private parseNumber(): BareItem {
    let sign = 1;
    if (this.peek() === '-') {
      sign = -1;
      this.pos += 1;
    }
    const c = this.peek();
    if (!(c >= '0' && c <= '9')) {
      throw new StructuredFieldError(`Expected a digit at ${this.pos}`);
    }
    let text = '';
    let isDecimal = false;
    while (!this.atEnd()) {
      const ch = this.peek();
      if (ch >= '0' && ch <= '9') {
        text += ch;
      } else if (ch === '.' && !isDecimal) {
        if (text.length > 12) {
          throw new StructuredFieldError('Decimal with too many integer digits');
        }
        text += ch;
        isDecimal = true;
      } else {
        break;
      }
      this.pos += 1;
      if ((!isDecimal && text.length > 15) || (isDecimal && text.length > 16)) {
        throw new StructuredFieldError('Number too long');
      }
    }
    if (!isDecimal) {
      return { type: 'integer', value: sign * Number(text) };
    }
    if (text.endsWith('.') || text.length - text.indexOf('.') - 1 > 3) {
      throw new StructuredFieldError('Decimal needs 1 to 3 fractional digits');
    }
    return { type: 'decimal', value: sign * Number(text) };
  }

  private parseString(): BareItem {
    this.expect('"');
    // Fast path: no escapes before the closing quote.
    const end = this.input.indexOf('"', this.pos);
    if (end >= 0) {
      const text = this.input.slice(this.pos, end);
      if (PLAIN_STRING.test(text)) {
        this.pos = end + 1;
        return { type: 'string', value: text };
      }
    }
    let out = '';
    for (;;) {
      if (this.atEnd()) {
        throw new StructuredFieldError('Unterminated string');
      }
      const ch = this.input[this.pos];
      this.pos += 1;
      if (ch === '\\') {
        const next = this.input[this.pos];
        if (next !== '"' && next !== '\\') {
          throw new StructuredFieldError('Invalid escape in string');
        }
        out += next;
        this.pos += 1;
      } else if (ch === '"') {
        return { type: 'string', value: out };
      } else {
        const code = ch.charCodeAt(0);
        if (code < 0x20 || code > 0x7e) {
          throw new StructuredFieldError('Invalid character in string');
        }
        out += ch;
      }
    }
  }

  private parseToken(): BareItem {
    const start = this.pos;
    this.pos += 1;
    while (!this.atEnd() && TOKEN_CHAR.test(this.peek())) {
      this.pos += 1;
    }
    return { type: 'token', value: this.input.slice(start, this.pos) };
  }

  private parseBinary(): BareItem {
    this.expect(':');
    const end = this.input.indexOf(':', this.pos);
    if (end < 0) {
      throw new StructuredFieldError('Unterminated byte sequence');
    }
    const text = this.input.slice(this.pos, end);
    if (!BASE64.test(text) || text.length % 4 === 1) {
      throw new StructuredFieldError('Invalid base64 in byte sequence');
    }
    this.pos = end + 1;
    return { type: 'binary', value: Buffer.from(text, 'base64') };
  }

  private parseBoolean(): BareItem {
    this.expect('?');
    const c = this.peek();
    if (c !== '0' && c !== '1') {
      throw new StructuredFieldError('Invalid boolean');
    }
    this.pos += 1;
    return { type: 'boolean', value: c === '1' };
  }

  private peek(): string {
    return this.input[this.pos] ?? '';
  }

  private atEnd(): boolean {
    return this.pos >= this.input.length;
  }

  private expect(c: string): void {
    if (this.input[this.pos] !== c) {
      throw new StructuredFieldError(`Expected "${c}" at ${this.pos}`);
    }
    this.pos += 1;
  }

  private skipSp(): void {
    while (this.input[this.pos] === ' ') {
      this.pos += 1;
    }
  }

  private skipOws(): void {
    while (this.input[this.pos] === ' ' || this.input[this.pos] === '\t') {
      this.pos += 1;
    }
  }
}

/** Parses a Dictionary field value (RFC 8941 §4.2, §4.2.2). Throws `StructuredFieldError`. */
export function parseDictionary(input: string): SfDictionary {
  const parser = new Parser(input);
  const dict = parser.parseDictionary();
  parser.finish();
  return dict;
}

/** Parses an Item field value (RFC 8941 §4.2.3). Throws `StructuredFieldError`. */
export function parseItem(input: string): SfItem {
  const parser = new Parser(input);
  const item = parser.parseItemOnly();
  parser.finish();
  return item;
}

export function serializeBareItem(item: BareItem): string {
  switch (item.type) {
    case 'integer':
      if (!Number.isInteger(item.value) || Math.abs(item.value) > MAX_INTEGER) {
        throw new StructuredFieldError(`Integer out of range: ${item.value}`);
      }
      return String(item.value);
    case 'decimal': {
      const rounded = Math.round(item.value * 1000) / 1000;
      if (!Number.isFinite(rounded) || Math.abs(Math.trunc(rounded)) > 999_999_999_999) {
        throw new StructuredFieldError(`Decimal out of range: ${item.value}`);
      }
      const text = String(rounded);
      return text.includes('.') ? text : `${text}.0`;
    }
    case 'string':
      return serializeString(item.value);
    case 'token':
      if (!TOKEN.test(item.value)) {
        throw new StructuredFieldError(`Invalid token: ${item.value}`);
      }
      return item.value;
    case 'binary':
      return `:${item.value.toString('base64')}:`;
    case 'boolean':
      return item.value ? '?1' : '?0';
  }
}

export function serializeString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code > 0x7e) {
      throw new StructuredFieldError('Strings allow only printable ASCII');
    }
    const ch = value[i];
    out += ch === '"' || ch === '\\' ? `\\${ch}` : ch;
  }
  return `${out}"`;
}

export function serializeParameters(params: SfParameters): string {
  let out = '';
  for (const [key, value] of params) {
    if (!KEY.test(key)) {
      throw new StructuredFieldError(`Invalid key: ${key}`);
    }
    out += value.type === 'boolean' && value.value ? `;${key}` : `;${key}=${serializeBareItem(value)}`;
  }
  return out;
}

export function serializeItem(item: SfItem): string {
  return serializeBareItem(item.value) + serializeParameters(item.params);
}

export function serializeInnerList(list: SfInnerList): string {
  return `(${list.items.map(serializeItem).join(' ')})${serializeParameters(list.params)}`;
}

export function serializeMember(member: SfMember): string {
  return isInnerList(member) ? serializeInnerList(member) : serializeItem(member);
}

export function serializeDictionary(dict: SfDictionary): string {
  const parts: string[] = [];
  for (const [key, member] of dict) {
    if (!KEY.test(key)) {
      throw new StructuredFieldError(`Invalid key: ${key}`);
    }
    if (!isInnerList(member) && member.value.type === 'boolean' && member.value.value) {
      parts.push(key + serializeParameters(member.params));
    } else {
      parts.push(`${key}=${serializeMember(member)}`);
    }
  }
  return parts.join(', ');
}
