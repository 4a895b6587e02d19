package legate.acp.permission;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * What a permission policy file says: {@code {"rules": [...], "default": ACTION}}, in YAML or JSON.
 * Read token by token, so that every error names its line and field: a misspelt field or kind
 * must stop the bridge, never be skipped (a skipped matcher would widen a rule).
 *
 * @param rules the rules in order; the first that matches decides
 * @param fallback what decides when no rule matches ({@code default}; deny when left out)
 */
record PolicyFile(List<PolicyRule> rules, PolicyAction fallback) {
    private static final Set<String> RULE_FIELDS = Set.of("action", "kind", "paths", "command", "tool", "root", "when");

    /**
     * @param name the file's name for messages
     * @param json true for a JSON file (a {@code .json} name), false for YAML
     */
    static PolicyFile parse(String text, String name, boolean json) throws PolicyFileError {
        JsonFactory factory = json ? new JsonFactory() : new YAMLFactory();
        try (JsonParser p = factory.createParser(text)) {
            return new Reader(p, name).file();
        } catch (JsonProcessingException e) {
            throw new PolicyFileError(name, e.getLocation() == null ? 0 : e.getLocation().getLineNr(), null,
                    "it does not parse as " + (json ? "JSON" : "YAML") + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new PolicyFileError(name, 0, null, e.getMessage());
        }
    }

    private static final class Reader {
        private final JsonParser p;
        private final String name;

        Reader(JsonParser p, String name) {
            this.p = p;
            this.name = name;
        }

        PolicyFile file() throws IOException, PolicyFileError {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw error(null, "the file must hold one object with \"rules\" and \"default\"");
            }
            List<PolicyRule> rules = null;
            PolicyAction fallback = PolicyAction.DENY;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "rules" -> rules = rules();
                    case "default" -> fallback = action(field);
                    default -> throw error(field, "unknown field (a policy has \"rules\" and \"default\")");
                }
            }
            if (rules == null) {
                throw error("rules", "missing: a policy needs a list of rules (it may be empty)");
            }
            return new PolicyFile(List.copyOf(rules), fallback);
        }

        private List<PolicyRule> rules() throws IOException, PolicyFileError {
            if (p.currentToken() != JsonToken.START_ARRAY) {
                throw error("rules", "must be a list of rules");
            }
            List<PolicyRule> rules = new ArrayList<>();
            while (p.nextToken() != JsonToken.END_ARRAY) {
                rules.add(rule(rules.size() + 1));
            }
            return rules;
        }

        private PolicyRule rule(int number) throws IOException, PolicyFileError {
            if (p.currentToken() != JsonToken.START_OBJECT) {
                throw error("rules", "rule " + number + " must be an object with an \"action\"");
            }
            int line = p.currentTokenLocation().getLineNr();
            PolicyAction action = null;
            List<PermissionKind> kinds = null;
            List<Glob> paths = null;
            List<Glob> commands = null;
            List<Glob> tools = null;
            String root = null;
            String when = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                p.nextToken();
                switch (field) {
                    case "action" -> action = action(field);
                    case "kind" -> kinds = strings(field, this::kind);
                    case "paths" -> paths = strings(field, Glob::path);
                    case "command" -> commands = strings(field, Glob::anything);
                    case "tool" -> tools = strings(field, Glob::anything);
                    case "root" -> root = oneOf(field, PolicyRule.ROOT_SANDBOX, PolicyRule.ROOT_CONFIGURED);
                    case "when" -> when = oneOf(field, PolicyRule.WHEN_ALLOW_EXECUTE);
                    default -> throw error(field, "unknown field in rule " + number + " (a rule has " + RULE_FIELDS + ")");
                }
            }
            if (action == null) {
                throw new PolicyFileError(name, line, "action", "rule " + number + " has no action (allow, deny or ask)");
            }
            return new PolicyRule(number, action, kinds, paths, commands, tools, root, when);
        }

        private PolicyAction action(String field) throws IOException, PolicyFileError {
            PolicyAction a = p.currentToken().isScalarValue() ? PolicyAction.named(p.getText()) : null;
            if (a == null) {
                throw error(field, "\"" + text() + "\" is not an action: write allow, deny or ask");
            }
            return a;
        }

        private PermissionKind kind(String value) {
            PermissionKind k = PermissionKind.of(value);
            return k.known() && k.value().equals(value) ? k : null;
        }

        private String oneOf(String field, String... allowed) throws IOException, PolicyFileError {
            String v = p.currentToken().isScalarValue() ? p.getText() : null;
            for (String a : allowed) {
                if (a.equals(v)) {
                    return a;
                }
            }
            throw error(field, "\"" + text() + "\" is not one of " + List.of(allowed));
        }

        /** A string or a list of strings, each turned into a value by {@code read} (null: not allowed). */
        private <T> List<T> strings(String field, Function<String, T> read) throws IOException, PolicyFileError {
            List<String> raw = new ArrayList<>();
            if (p.currentToken() == JsonToken.START_ARRAY) {
                while (p.nextToken() != JsonToken.END_ARRAY) {
                    raw.add(scalar(field));
                }
            } else {
                raw.add(scalar(field));
            }
            List<T> values = new ArrayList<>();
            for (String s : raw) {
                T v = read.apply(s);
                if (v == null) {
                    throw error(field, "unknown kind \"" + s + "\" (known: read, edit, delete, move, search, execute,"
                            + " think, fetch, switch_mode, other)");
                }
                values.add(v);
            }
            return List.copyOf(values);
        }

        private String scalar(String field) throws IOException, PolicyFileError {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                throw error(field, "must be a string or a list of strings, not " + text());
            }
            return p.getText();
        }

        private String text() throws IOException {
            return p.currentToken().isScalarValue() ? p.getText() : "a " + (p.currentToken().isStructStart() ? "structure" : "token");
        }

        private PolicyFileError error(String field, String problem) {
            return new PolicyFileError(name, p.currentTokenLocation().getLineNr(), field, problem);
        }
    }
}
