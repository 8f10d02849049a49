import { randomBytes } from 'node:crypto';
import type { ClientCredentials, ClientCredentialsStore } from '@solid/community-server';
import { FileKeyValueStorage } from '../../storage/FileKeyValueStorage';

/** A client credentials record as kept: CSS's fields plus when it was made. */
export interface StoredClientCredentials extends ClientCredentials {
  created: string;
}

/** What a client id's readable part may hold, after cleaning. */
const LABEL_PART = /[^a-z0-9_-]+/gu;

/**
 * Client credentials (an id and a secret a script or bot logs in with, as the user it was made for),
 * kept durably in the data directory, one file each. It implements CSS's ClientCredentialsStore so
 * that CSS's OpenID provider grants `client_credentials` from it. The client id is both the record's
 * id and its label: `<name>_<random>`. The secret is kept as is, since the OpenID provider compares
 * it to what the client sends; the files are readable by the server's user only.
 */
export class ClientCredentialsFileStore implements ClientCredentialsStore {
  private readonly records: FileKeyValueStorage<StoredClientCredentials>;

  public constructor(dataDir: string) {
    this.records = new FileKeyValueStorage(dataDir, 'accounts/client-credentials');
  }

  public async get(id: string): Promise<StoredClientCredentials | undefined> {
    return this.records.get(id);
  }

  public async findByLabel(label: string): Promise<StoredClientCredentials | undefined> {
    return this.records.get(label);
  }

  public async findByAccount(accountId: string): Promise<StoredClientCredentials[]> {
    const found: StoredClientCredentials[] = [];
    for await (const [ , record ] of this.records.entries()) {
      if (record.accountId === accountId) {
        found.push(record);
      }
    }
    return found.sort((left, right): number => left.created.localeCompare(right.created));
  }

  /**
   * @param label - A readable name; cleaned and suffixed with random characters to make the client id.
   * @param webId - The WebID the client acts as.
   * @param accountId - The owner's username.
   */
  public async create(label: string, webId: string, accountId: string): Promise<StoredClientCredentials> {
    const name = label.toLowerCase().replace(LABEL_PART, '-').replace(/^-+|-+$/gu, '').slice(0, 40) || 'client';
    const id = `${name}_${randomBytes(12).toString('hex')}`;
    const record: StoredClientCredentials = {
      id, label: id, webId, accountId, secret: randomBytes(32).toString('base64url'), created: new Date().toISOString(),
    };
    await this.records.set(id, record);
    return record;
  }

  public async delete(id: string): Promise<void> {
    await this.records.delete(id);
  }
}
