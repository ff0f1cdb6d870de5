import model from './verification-details.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
