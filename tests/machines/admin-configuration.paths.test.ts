import model from './admin-configuration.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
