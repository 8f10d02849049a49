interface Rule {
  pattern: RegExp;
  replacement: string;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
}

/**
 * Removes secrets from a log message before it is written: credentials after Bearer/Basic/DPoP,
 * JWTs (Fedpod's tokens), PEM private keys, password/secret/token fields, user:password@ in URLs,
 * and the last segment of paths under `secretPaths` (webhook URIs end in their secret).
 * A last line of defence: code should not put secrets in messages to begin with.
 */
export class LogRedactor {
  private readonly rules: Rule[];

  /**
   * @param secretPaths - Path prefixes (e.g. `/webhooks/`) whose next segment is a secret.
   */
  public constructor(secretPaths: string[] = []) {
    this.rules = [
      { pattern: /-----BEGIN ([A-Z ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/gu, replacement: '[redacted private key]' },
      { pattern: /\b(Bearer|Basic|DPoP)\s+[\w.~+/=-]+/giu, replacement: '$1 [redacted]' },
      { pattern: /\beyJ[\w-]*\.[\w-]+\.[\w-]*/gu, replacement: '[redacted token]' },
      { pattern: /(["']?\b(?:password|passwd|secret|token|authorization)["']?\s*[:=]\s*)("(?:[^"\\]|\\.)*"|'[^']*'|[^\s&,;}]+)/giu,
        replacement: '$1[redacted]' },
      { pattern: /(\/\/)[^\s/@:]+:[^\s/@]+@/gu, replacement: '$1[redacted]@' },
      ...secretPaths.map((path): Rule => ({
        pattern: new RegExp(`(${escapeRegExp(path)})[^\\s/?#"'<>]+`, 'gu'),
        replacement: '$1[redacted]',
      })),
    ];
  }

  public redact(message: string): string {
    let text = message;
    for (const { pattern, replacement } of this.rules) {
      text = text.replace(pattern, replacement);
    }
    return text;
  }
}
