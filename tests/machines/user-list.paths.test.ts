import model from './user-list.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
