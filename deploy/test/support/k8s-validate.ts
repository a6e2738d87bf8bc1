/**
 * Validates one Kubernetes object against its JSON schema: the Kubernetes API's own (package
 * kubernetes-models, generated from the Kubernetes OpenAPI definitions) or, for KEDA objects,
 * the schema generated from KEDA's CRDs (@kubernetes-models/keda). Returns the problems found
 * (empty when valid); an apiVersion/kind without a schema is a problem too. These schemas check
 * types, required fields and enums; like the OpenAPI definitions they come from, they do not
 * reject unknown fields (the API server reports those, `kubectl --validate=strict`).
 */
export async function validateManifest(doc: Record<string, unknown>): Promise<string[]> {
  const apiVersion = String(doc.apiVersion ?? '');
  const kind = String(doc.kind ?? '');
  if (!apiVersion || !kind) return ['apiVersion and kind are required'];
  const pkg = apiVersion.startsWith('keda.sh/') ? '@kubernetes-models/keda' : 'kubernetes-models';
  let Model: new (data: unknown) => { validate(): void };
  try {
    Model = ((await import(`${pkg}/${apiVersion}/${kind}`)) as Record<string, typeof Model>)[kind]!;
  } catch {
    return [`no schema for ${apiVersion} ${kind}`];
  }
  try {
    new Model(doc).validate();
    return [];
  } catch (e) {
    return String((e as Error).message).split(', ');
  }
}
