/**
 * The supervisor of ACP sessions: who may do what, and where. {@link legate.acp.permission.SessionRoot}
 * is a session's working directory, {@link legate.acp.permission.PermissionPolicy} answers
 * {@code session/request_permission} (rules: {@link legate.acp.permission.PermissionRules}, built in or from a policy file),
 * and {@link legate.acp.permission.FileSystemAccess} serves {@code fs/*} inside the root.
 */
package legate.acp.permission;
