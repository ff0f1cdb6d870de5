import model from './new-application-on-behalf.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
