import model from './edit-permissions.model.ts';
import { describePathTests } from './path-tests.ts';

describePathTests(model);
