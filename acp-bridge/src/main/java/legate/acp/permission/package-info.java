/**
 * The supervisor of ACP sessions: who may do what, and where. {@link legate.acp.permission.SessionRoot}
 * is a session's working directory, {@link legate.acp.permission.PermissionPolicy} answers
 * {@code session/request_permission} (built in: {@link legate.acp.permission.PermissionClassifier}),
 * and {@link legate.acp.permission.FileSystemAccess} serves {@code fs/*} inside the root.
 */
package legate.acp.permission;
