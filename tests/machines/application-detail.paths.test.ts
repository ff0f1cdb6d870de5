import model from './application-detail.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
