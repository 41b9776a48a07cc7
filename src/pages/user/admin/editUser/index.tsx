// Placeholder until this module's issue builds the page.
export { default } from '@/components/Building';
