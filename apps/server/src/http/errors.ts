/** Moved to src/errors.ts (services must not import the HTTP layer); kept so older imports still work. */
export { AppError, forbidden, notFound } from '../errors';
