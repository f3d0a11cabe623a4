import { removeLinkTests } from '../../helpers/issueLinkTests.js';

removeLinkTests('blocks', 'issueRemoveIssueBlocking');
