// Unit tests touch no servers: fail a hung one after 30 s instead of the
// global 120 s that integration tests need.
jest.setTimeout(30_000);
