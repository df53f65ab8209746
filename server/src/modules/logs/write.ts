// The one way other modules write the action log: inside their own transaction, so the row lands with the change.
export { writeLog } from './repo.ts';
