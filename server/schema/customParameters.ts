// Custom parameters: customParameters[name], echoed back in the response.
import { keyedMap } from './common.ts';

export const customParameters = keyedMap(2048);
