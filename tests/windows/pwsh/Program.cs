// Test-only: pwsh.exe's own entry point (PowerShell's src/powershell/Program.cs).
public static class Program
{
    public static int Main(string[] args) => Microsoft.PowerShell.UnmanagedPSEntry.Start(args, args.Length);
}
