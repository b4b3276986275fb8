// The real gateway, configured from the environment exactly as `npm start` is (settingsFromEnv):
// the parent sets DATA_DIR, MERCHANTS_FILE, LOG_LEVEL and, for PostgreSQL, DATABASE_URL.
import { settingsFromEnv } from '../../server/config.ts';
import { createGateway } from '../../server/gateway.ts';
import { failed, serve } from './serve.ts';

try {
  const running = await createGateway(settingsFromEnv());
  await serve(running.app, () => running.close());
} catch (error) {
  failed(error);
}
