/** A page cursor that the store did not make. */
export class InvalidCursorError extends Error {
  public constructor() {
    super('Not a valid page cursor');
    this.name = 'InvalidCursorError';
  }
}
