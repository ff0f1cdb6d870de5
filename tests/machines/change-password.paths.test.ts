import model from './change-password.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
