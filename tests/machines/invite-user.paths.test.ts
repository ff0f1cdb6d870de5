import model from './invite-user.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
