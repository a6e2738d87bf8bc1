export * from './envelope';
export * from './errors';
export * from './locale';
export * from './constants';
export * from './artifacts';
export * from './analysis-params';
export * from './jobs';
