import model from './application-list.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
