import model from './verification-wizard.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
