// GET /activitypub/user-id/{user-id}: no federation in anvil, so 404 to everyone, as Gitea with federation off.
import { federationOffTests } from '../../helpers/federation.js';

federationOffTests('activitypubPerson', 'GET', (id) => `/activitypub/user-id/${id}`);
