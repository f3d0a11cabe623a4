// POST /activitypub/user-id/{user-id}/inbox: no federation in anvil, so 404 to everyone, as Gitea with federation off.
import { federationOffTests } from '../../helpers/federation.js';

federationOffTests('activitypubPersonInbox', 'POST', (id) => `/activitypub/user-id/${id}/inbox`);
