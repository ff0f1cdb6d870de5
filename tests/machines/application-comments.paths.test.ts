import model from './application-comments.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
