package legate.acp.adapter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** ACP_AGENT_CMD is split as a shell would split it, quotes respected, with no shell and no expansion. */
class CommandWordsTest {
    @Test
    void blanksSeparateWordsAndQuotesKeepThem() {
        assertThat(CommandWords.split("  node \"my agent.js\"  --flag='a b' plain\\ space\t"))
                .containsExactly("node", "my agent.js", "--flag=a b", "plain space");
    }

    @Test
    void doubleQuotesHonourTheirFourEscapesAndSingleQuotesNone() {
        assertThat(CommandWords.split("\"a\\\"b\\\\c\\d\" 'e\\f'")).containsExactly("a\"b\\c\\d", "e\\f");
    }

    @Test
    void emptyQuotesAreAnEmptyWord() {
        assertThat(CommandWords.split("a '' b \"\"")).containsExactly("a", "", "b", "");
    }

    @Test
    void nothingIsExpanded() {
        assertThat(CommandWords.split("echo $HOME * ~ `id`")).containsExactly("echo", "$HOME", "*", "~", "`id`");
    }

    @Test
    void anUnterminatedQuoteIsAnErrorNamingIt() {
        assertThatThrownBy(() -> CommandWords.split("agent 'oops")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unterminated single quote");
        assertThatThrownBy(() -> CommandWords.split("agent \"oops")).hasMessageContaining("unterminated double quote");
        assertThatThrownBy(() -> CommandWords.split("agent \\")).hasMessageContaining("trailing backslash");
    }
}
