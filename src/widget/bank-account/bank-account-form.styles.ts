import { formStyles } from '../internal/styles.ts';

export const styles = [formStyles];
