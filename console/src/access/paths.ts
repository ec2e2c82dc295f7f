/** Where the access explorer's pages live, so every link to them is written one way. */
export const personPath = (personId: string) => `/people/${encodeURIComponent(personId)}`;
export const entityPath = (connectionId: string, entityId: string) => `/connections/${encodeURIComponent(connectionId)}/entities/${encodeURIComponent(entityId)}`;
export const accessHistoryPath = (filters: { person_id?: string; connection_id?: string } = {}) => {
  const query = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => Boolean(entry[1]))).toString();
  return query ? `/access-history?${query}` : '/access-history';
};
