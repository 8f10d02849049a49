// What the server tells the operator's commands, kept apart from OperatorSecret so that the
// commands can read it without loading the server's modules.

/** Where a running server tells the operator's commands how to reach it, in its data directory. */
export const OPERATOR_FILE = 'operator.json';

/** What OPERATOR_FILE holds. */
export interface OperatorFile {
  /** The server's public base URL: the one every URI it mints starts with. */
  baseUrl: string;
  /** Where a command on this machine reaches the server (its port, on loopback or its --host). */
  localUrl: string;
  /** Bearer secret of the operator routes, new at every start. */
  secret: string;
  pid: number;
}
