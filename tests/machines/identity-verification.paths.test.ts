import model from './identity-verification.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
