/** Written into every result (artifact manifest, h5ad uns) so outputs can be traced to the engine. */
export const ENGINE_VERSION = '0.4.0';
