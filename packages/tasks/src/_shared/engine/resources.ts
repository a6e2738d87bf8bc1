import { gunzipChunks, isGzipMagic } from '@cellcloud/formats/gzip';
import { TaskError } from '@cellcloud/engine/tasks/kit';
import type { ResourceReader } from '@cellcloud/engine/tasks/kit';

/**
 * A reference resource (gene positions, annotation references, marker lists…) as text, gunzipped
 * when it is gzipped; TaskError('common.resourceMissing') when it is not installed
 * (CELLCLOUD_RESOURCES_DIR, README "Configuration").
 */
export async function readResourceText(resources: ResourceReader, path: string): Promise<string> {
  if (!(await resources.exists(path))) {
    throw new TaskError('common.resourceMissing', `The reference resource "${path}" is not installed.`, {
      path,
    });
  }
  const bytes = await resources.readBytes(path);
  if (!isGzipMagic(bytes)) return new TextDecoder().decode(bytes);
  const decoder = new TextDecoder();
  let text = '';
  for await (const c of gunzipChunks(
    (async function* () {
      yield bytes;
    })(),
    path,
  ))
    text += decoder.decode(c, { stream: true });
  return text + decoder.decode();
}
