package legate.acp.permission;

import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The kind of a tool call in ACP ({@code ToolKind}), which is what the permission decision is about.
 *
 * <p>An open vocabulary, hence a record with named constants rather than an enum: agents send kinds
 * the spec does not list yet, and such a kind is kept as sent (for reasons and logs) while
 * {@link #known()} says it must be treated as {@link #OTHER}.
 */
public record PermissionKind(String value) {

    public static final PermissionKind READ = new PermissionKind("read");
    public static final PermissionKind EDIT = new PermissionKind("edit");
    public static final PermissionKind DELETE = new PermissionKind("delete");
    public static final PermissionKind MOVE = new PermissionKind("move");
    public static final PermissionKind SEARCH = new PermissionKind("search");
    public static final PermissionKind EXECUTE = new PermissionKind("execute");
    public static final PermissionKind THINK = new PermissionKind("think");
    public static final PermissionKind FETCH = new PermissionKind("fetch");
    public static final PermissionKind SWITCH_MODE = new PermissionKind("switch_mode");
    public static final PermissionKind OTHER = new PermissionKind("other");

    private static final Map<String, PermissionKind> KNOWN = Stream
            .of(READ, EDIT, DELETE, MOVE, SEARCH, EXECUTE, THINK, FETCH, SWITCH_MODE, OTHER)
            .collect(Collectors.toUnmodifiableMap(PermissionKind::value, Function.identity()));

    /** Rejects a null value; use {@link #of} for wire input. */
    public PermissionKind {
        if (value == null) {
            throw new IllegalArgumentException("a tool kind needs a value");
        }
    }

    /**
     * The kind for a value read from the wire.
     * PROTOCOL (ACP ToolCall.kind): optional, and "other" when absent; a blank value is read the same way.
     */
    public static PermissionKind of(String value) {
        if (value == null || value.isBlank()) {
            return OTHER;
        }
        PermissionKind known = KNOWN.get(value.strip().toLowerCase(Locale.ROOT));
        return known != null ? known : new PermissionKind(value);
    }

    /** True for a kind the spec lists; an unknown kind must be handled as {@link #OTHER}. */
    public boolean known() {
        return KNOWN.containsKey(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
