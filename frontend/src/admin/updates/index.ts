export { UpdatesPage } from './UpdatesPage';
