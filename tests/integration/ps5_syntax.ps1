# Fails (exit 1) when a PowerShell file uses syntax that Windows PowerShell 5.1
# cannot parse: pipeline chains (&& ||), ternaries (? :), null-coalescing
# (?? ??=) and null-conditional member access (?. ?[]). Uses PowerShell 7's
# own parser and walks the AST, so strings and comments never count.
param([Parameter(Mandatory = $true)][string]$Path)

$tokens = $null
$errors = $null
$ast = [System.Management.Automation.Language.Parser]::ParseFile($Path, [ref]$tokens, [ref]$errors)
if ($errors.Count -gt 0) {
    foreach ($e in $errors) { Write-Output ("parse error: " + $e.Message + " at line " + $e.Extent.StartLineNumber) }
    exit 1
}

$found = New-Object System.Collections.ArrayList
$predicate = {
    param($node)
    if ($node -is [System.Management.Automation.Language.PipelineChainAst]) { return $true }
    if ($node -is [System.Management.Automation.Language.TernaryExpressionAst]) { return $true }
    if ($node -is [System.Management.Automation.Language.BinaryExpressionAst] -and
        $node.Operator -eq [System.Management.Automation.Language.TokenKind]::QuestionQuestion) { return $true }
    if ($node -is [System.Management.Automation.Language.AssignmentStatementAst] -and
        $node.Operator -eq [System.Management.Automation.Language.TokenKind]::QuestionQuestionEquals) { return $true }
    if ($node -is [System.Management.Automation.Language.MemberExpressionAst] -and $node.NullConditional) { return $true }
    if ($node -is [System.Management.Automation.Language.IndexExpressionAst] -and $node.NullConditional) { return $true }
    return $false
}
foreach ($n in $ast.FindAll($predicate, $true)) { [void]$found.Add($n) }
# The same operators as tokens, in case a future parser nests them elsewhere.
foreach ($t in $tokens) {
    $k = $t.Kind.ToString()
    if ($k -eq 'AndAnd' -or $k -eq 'OrOr' -or $k -eq 'QuestionQuestion' -or $k -eq 'QuestionQuestionEquals' -or
        $k -eq 'QuestionDot' -or $k -eq 'QuestionLBracket') {
        [void]$found.Add($t)
    }
}
if ($found.Count -gt 0) {
    foreach ($n in $found) { Write-Output ("PowerShell-7-only syntax at line " + $n.Extent.StartLineNumber + ": " + $n.Extent.Text) }
    exit 1
}
exit 0
