import model from './confirm-action.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
