// Components wired by config/ (componentsjs-generator reads this file).
export * from './handlers/BodyLimitHandler';
export * from './handlers/ContextHandler';
export * from './handlers/HealthHandler';
export * from './handlers/JsonHttpHandler';
export * from './handlers/MediaTypeGuardHandler';
export * from './handlers/ldp/LdpCreateHandler';
export * from './handlers/ldp/LdpReadHandler';
export * from './plugins/ldp/ContainerInitializer';
export * from './plugins/ldp/DocumentLoader';
export * from './plugins/ldp/JsonLdParser';
export * from './plugins/ldp/RdfSerializer';
export * from './storage/ResourceGraphStore';
export * from './storage/Skolemizer';
export * from './storage/SparqlClient';
export * from './storage/SparqlStoreAccessor';
export * from './storage/StoreDatasetInitializer';
