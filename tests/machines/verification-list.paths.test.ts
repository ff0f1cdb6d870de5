import model from './verification-list.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
