import model from './session.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
