/// <reference lib="webworker" />
import { webglRendererName } from './webglName';

/**
 * Probes WebGL off the main thread (rendererChoice.ts: probeInBackground): the first WebGL context
 * of a page starts the GPU process, up to a second under a software rasterizer, which here does not
 * hold up the page. Posts UNMASKED_RENDERER_WEBGL ('' if masked), or null without WebGL here.
 */
self.postMessage(webglRendererName(new OffscreenCanvas(1, 1)));
