import model from './cancel-applications.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
