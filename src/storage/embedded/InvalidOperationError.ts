/**
 * The client's query, update or data was rejected by the store (syntax error,
 * unsupported feature, graph already exists...). Nothing was changed or logged.
 */
export class InvalidOperationError extends Error {
  public constructor(message: string) {
    super(message);
    this.name = 'InvalidOperationError';
  }
}
