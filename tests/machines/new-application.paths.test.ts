import model from './new-application.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
