package legate.cli;

import picocli.CommandLine;

/**
 * Gives each option that names a configuration key (its {@code descriptionKey}) the value of that
 * key from {@link Settings}, so every flag has an environment variable and a .env line behind it.
 */
final class SettingsDefaults implements CommandLine.IDefaultValueProvider {
    private final Settings settings;

    SettingsDefaults(Settings settings) {
        this.settings = settings;
    }

    @Override
    public String defaultValue(CommandLine.Model.ArgSpec arg) {
        if (arg instanceof CommandLine.Model.OptionSpec option && !option.descriptionKey().isEmpty()) {
            return settings.get(option.descriptionKey()).orElse(option.defaultValue());
        }
        return arg.defaultValue();
    }
}
