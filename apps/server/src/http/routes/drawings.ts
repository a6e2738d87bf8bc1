import { drawing, drawingApp, drawingSave } from '@cellcloud/contracts';
import { z } from 'zod';
import type { AppContext } from '../../context';
import '../../i18n/accounts';
import { getDrawing, saveDrawing } from '../../services/drawings';
import type { ZodApp } from '../app';
import { userOf } from '../auth';
import { ok, okSchema } from '../envelope';

const tags = ['drawings'];
const security = [{ accessToken: [] }];
const params = z.object({ app: drawingApp });
/** The whiteboard lives on the Tools page, so it needs the `tools` privilege. */
const config = { privilege: 'tools' };

/** GET/PUT /api/user/drawings/:app — the signed-in user's whiteboard scene. */
export default async function drawingRoutes(app: ZodApp, ctx: AppContext) {
  app.get(
    '/api/user/drawings/:app',
    { config, schema: { tags, security, params, response: okSchema(drawing) } },
    async (req) => ok(await getDrawing(ctx.db, userOf(req).id, req.params.app)),
  );

  app.put(
    '/api/user/drawings/:app',
    { config, schema: { tags, security, params, body: drawingSave, response: okSchema(drawing) } },
    async (req) =>
      ok(
        await saveDrawing(ctx.db, userOf(req).id, req.params.app, {
          elements: req.body.elements,
          appState: req.body.appState,
          files: req.body.files,
        }),
      ),
  );
}
