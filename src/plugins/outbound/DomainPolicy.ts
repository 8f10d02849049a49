/**
 * Which hosts the server does not federate with (an operator's domain blocks of severity suspend):
 * asked before a signed request is verified, before a delivery and before a fetch. Declared here,
 * below its users, and implemented by the moderation plugin (DomainBlocks).
 */
export interface DomainPolicy {
  /** Whether `host` (a host name, without port) or a domain above it is suspended. */
  refuses: (host: string) => Promise<boolean>;
}
