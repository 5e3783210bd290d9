export { fieldMessages, isStaleVersion } from '../../../components/server-errors';
