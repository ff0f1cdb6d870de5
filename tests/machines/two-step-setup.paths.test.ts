import model from './two-step-setup.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
