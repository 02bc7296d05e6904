export { CustomizationPage } from './CustomizationPage';
