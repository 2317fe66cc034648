<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ja_JP">
<context>
    <name>AboutDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/about.py" line="+76"/>
        <location line="+2"/>
        <source>Third-party notices</source>
        <translation>サードパーティの通知</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This copy was not built with its third-party notices: they are written when the installers are built (packaging/build.py).</source>
        <translation>このコピーはサードパーティの通知なしでビルドされています。通知はインストーラーのビルド時に作成されます（packaging/build.py）。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>About System Portal Admin</source>
        <extracomment>&quot;&quot; while the key is read; None: it can be neither read nor made. Where the key is kept (``keys.KeyPlace``), once read.</extracomment>
        <translation>System Portal Admin について</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>System Portal Admin</source>
        <translation>System Portal Admin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Version %1</source>
        <translation>バージョン %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Desktop administration for the System Portal, with a built-in sandbox server.</source>
        <translation>System Portal のデスクトップ管理ツールです。サンドボックス サーバーを内蔵しています。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Licensed under the %1 (%2).</source>
        <translation>%1（%2）の下でライセンスされています。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Third-party notices…</source>
        <translation>サードパーティの通知…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Qt %1 (PySide6 %2), Python %3</source>
        <translation>Qt %1 (PySide6 %2)、Python %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Version</source>
        <translation>バージョン</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Qt and Python versions</source>
        <translation>Qt と Python のバージョン</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Evidence signing key: reading…</source>
        <translation>証跡署名鍵: 読み込み中…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence signing key: none (it can be neither read nor made on this computer)</source>
        <translation>証跡署名鍵: なし（このコンピューターでは読み込みも作成もできません）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Evidence signing key: %1</source>
        <translation>証跡署名鍵: %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Kept in the key file %1, readable by you only (this computer has no usable keyring).</source>
        <translation>鍵ファイル %1 に保存されています。読み取れるのはあなただけです（このコンピューターには使用できるキーリングがありません）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Kept in the system keyring.</source>
        <translation>システムのキーリングに保存されています。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Evidence signing key fingerprint</source>
        <translation>証跡署名鍵のフィンガープリント</translation>
    </message>
</context>
<context>
    <name>AccountColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_model.py" line="+74"/>
        <source>Country</source>
        <translation>国</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Email</source>
        <translation>メールアドレス</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-37"/>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Phone</source>
        <translation>電話番号</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Portal</source>
        <translation>ポータル</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Time zone</source>
        <translation>タイムゾーン</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Updated</source>
        <translation>更新日時</translation>
    </message>
</context>
<context>
    <name>AccountFilters</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_filter_bar.py" line="+133"/>
        <source>&amp;Institution:</source>
        <translation>機関(&amp;I):</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Portal:</source>
        <translation>ポータル(&amp;P):</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A word of the name…</source>
        <translation>名前の一部…</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Account filters</source>
        <translation>アカウントの絞り込み</translation>
    </message>
    <message>
        <location line="-131"/>
        <location line="+112"/>
        <source>Any portal</source>
        <extracomment>How long typing must pause before the list is queried again.</extracomment>
        <translation>すべて</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+109"/>
        <source>Any status</source>
        <translation>すべて</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Clear every filter</source>
        <translation>すべての絞り込み条件をクリア</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Clear filters</source>
        <translation>条件をクリア</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>E&amp;mail:</source>
        <translation>メール(&amp;M):</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Filter by email</source>
        <translation>メールアドレスで絞り込み</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Filter by institution id</source>
        <translation>機関 ID で絞り込み</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Filter by name</source>
        <translation>名前で絞り込み</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by portal</source>
        <translation>ポータルで絞り込み</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by status</source>
        <translation>ステータスで絞り込み</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Institution id</source>
        <translation>機関 ID</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>S&amp;tatus:</source>
        <translation>ステータス(&amp;T):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Starts with…</source>
        <translation>前方一致…</translation>
    </message>
</context>
<context>
    <name>AccountsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_text.py" line="+16"/>
        <source>Activate</source>
        <extracomment>Status actions in display order, with the button text and the confirm button text.</extracomment>
        <translation>有効化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate account</source>
        <translation>アカウントを有効化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate the account %1? It can sign in again afterwards.</source>
        <translation>アカウント %1 を有効化しますか？有効化後は再びサインインできるようになります。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Suspend</source>
        <translation>一時停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend account</source>
        <translation>アカウントを一時停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend the account %1? It is signed out and cannot sign in until it is activated again.</source>
        <translation>アカウント %1 を一時停止しますか？サインアウトされ、再び有効化されるまでサインインできなくなります。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Deactivate</source>
        <translation>無効化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate account</source>
        <translation>アカウントを無効化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate the account %1? It is signed out and cannot sign in until it is activated again.</source>
        <translation>アカウント %1 を無効化しますか？サインアウトされ、再び有効化されるまでサインインできなくなります。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The account %1 was activated.</source>
        <extracomment>What a status action did, said as a sentence naming the account.</extracomment>
        <translation>アカウント %1 を有効にしました。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The account %1 was suspended.</source>
        <translation>アカウント %1 を一時停止しました。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The account %1 was deactivated.</source>
        <translation>アカウント %1 を無効化しました。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The status of the account %1 was changed.</source>
        <translation>アカウント %1 のステータスを変更しました。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+404"/>
        <source>%1: %2 → %3</source>
        <translation>%1：%2 → %3</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+196"/>
        <source>&amp;Country:</source>
        <translation>国(&amp;C):</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>&amp;Language:</source>
        <translation>言語(&amp;L):</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Phone:</source>
        <translation>電話番号(&amp;P):</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+123"/>
        <source>&amp;Reason (optional):</source>
        <translation>理由（任意）(&amp;R):</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+4"/>
        <source>&amp;Remark:</source>
        <translation>備考(&amp;R):</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Time zone:</source>
        <translation>タイムゾーン(&amp;T):</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-69"/>
        <source>A password reset link was mailed to %1.</source>
        <translation>%1 にパスワード リセット用のリンクを送信しました。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+258"/>
        <source>Account</source>
        <translation>アカウント</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+27"/>
        <source>Account being edited</source>
        <translation>編集中のアカウント</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-39"/>
        <location line="+46"/>
        <source>Account details</source>
        <translation>アカウントの詳細</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Account id</source>
        <translation>アカウント ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="+196"/>
        <source>Account id to open</source>
        <translation>開くアカウントの ID</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Account id, e.g. ACC…</source>
        <translation>アカウント ID（例：ACC…）</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-42"/>
        <source>Account name</source>
        <translation>アカウント名</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="+9"/>
        <source>Accounts</source>
        <translation>アカウント</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+40"/>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+7"/>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-14"/>
        <source>Choose an account to see its details.</source>
        <translation>アカウントを選択すると詳細が表示されます。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy id</source>
        <translation>ID をコピー</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Copy the account id</source>
        <translation>アカウント ID をコピー</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Copy the account id to the clipboard</source>
        <translation>アカウント ID をクリップボードにコピーします</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-55"/>
        <source>Could not change the status of %1</source>
        <translation>%1 のステータスを変更できませんでした</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Could not reset the password of %1</source>
        <translation>%1 のパスワードをリセットできませんでした</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Could not save the account %1</source>
        <translation>アカウント %1 を保存できませんでした</translation>
    </message>
    <message>
        <location line="-48"/>
        <source>Country</source>
        <translation>国</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+15"/>
        <source>Country:</source>
        <translation>国:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Created:</source>
        <translation>作成日時:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-20"/>
        <source>Default country</source>
        <translation>既定の国</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Default language</source>
        <translation>既定の言語</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Default time zone</source>
        <translation>既定のタイムゾーン</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Edit account</source>
        <translation>アカウントの編集</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+11"/>
        <source>Edit the account</source>
        <translation>アカウントを編集</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+3"/>
        <source>Edit the account %1</source>
        <translation>アカウント %1 の編集</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-2"/>
        <source>Edit…</source>
        <translation>編集…</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Email:</source>
        <translation>メールアドレス:</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Id:</source>
        <translation>ID:</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Institution:</source>
        <translation>機関:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-2"/>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-3"/>
        <source>Language:</source>
        <translation>言語:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-3"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-5"/>
        <source>Name:</source>
        <translation>名前:</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>No account chosen</source>
        <translation>アカウントが選択されていません</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-24"/>
        <source>Nothing has changed.</source>
        <translation>変更はありません。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_panel.py" line="-4"/>
        <source>Open</source>
        <translation>開く</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>There are no accounts yet.</source>
        <extracomment>Initial column widths (the person can resize; hidden columns keep the default). Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>アカウントはまだありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No accounts match these filters.</source>
        <translation>このフィルターに一致するアカウントはありません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Open by id:</source>
        <translation>ID で開く(&amp;O):</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Open the account with this id</source>
        <translation>この ID のアカウントを開く</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+1"/>
        <source>Phone</source>
        <translation>電話番号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+35"/>
        <source>Phone number</source>
        <translation>電話番号</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-30"/>
        <source>Phone:</source>
        <translation>電話番号:</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Portal:</source>
        <translation>ポータル:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+4"/>
        <source>Question</source>
        <translation>確認</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Reason for the status change</source>
        <translation>ステータス変更の理由</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+1"/>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+4"/>
        <source>Remark</source>
        <translation>備考</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+2"/>
        <source>Remark:</source>
        <translation>備考:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-91"/>
        <source>Reset password</source>
        <translation>パスワードのリセット</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+19"/>
        <source>Reset password…</source>
        <translation>パスワードをリセット…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+108"/>
        <location line="+9"/>
        <source>Save changes</source>
        <translation>変更の保存</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+30"/>
        <source>Save the changes</source>
        <translation>変更を保存</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-7"/>
        <source>Save these changes to the account %1?</source>
        <translation>アカウント %1 にこれらの変更を保存しますか？</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+3"/>
        <source>Send a password reset link</source>
        <translation>パスワード リセット用のリンクを送信</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-108"/>
        <source>Send a password reset link to the account %1? It is mailed to %2.</source>
        <translation>アカウント %1 にパスワード リセット用のリンクを送信しますか？リンクは %2 宛てにメールで送信されます。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Send reset link</source>
        <translation>リセットリンクを送信</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+3"/>
        <source>Status change</source>
        <translation>ステータスの変更</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="-25"/>
        <source>Status:</source>
        <translation>ステータス:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="-28"/>
        <source>Status: %1 → %2</source>
        <extracomment>The server accepts a reason of at most this many characters.</extracomment>
        <translation>ステータス：%1 → %2</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+51"/>
        <source>The account %1 was saved.</source>
        <translation>アカウント %1 を保存しました。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="-71"/>
        <source>The name is required.</source>
        <extracomment>Field key -&gt; (client keyword, account attribute).</extracomment>
        <translation>名前は必須です。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+8"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>%1サーバー「%2」を変更します。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="+33"/>
        <source>Time zone</source>
        <translation>タイムゾーン</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+5"/>
        <source>Time zone:</source>
        <translation>タイムゾーン:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/edit_dialog.py" line="+68"/>
        <source>Type to search, e.g. Japan or JP</source>
        <translation>入力して検索（例：Japan、JP）</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Type to search, e.g. Tokyo or UTC+9</source>
        <translation>入力して検索（例：Tokyo、UTC+9）</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Type to search; a code not in the list is sent as typed</source>
        <translation>入力して検索。一覧にないコードは入力したとおりに送信されます</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_detail.py" line="+4"/>
        <source>Updated:</source>
        <translation>更新日時:</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Why actions are unavailable</source>
        <translation>操作できない理由</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/status_dialog.py" line="+11"/>
        <source>Why, for the audit trail</source>
        <translation>監査記録に残す理由</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/accounts_controller.py" line="-190"/>
        <source>You cannot change the status of your own account.</source>
        <extracomment>The account the detail shows (None: nothing chosen). ErrorInfo of a failure to show in the panel. A translated success text. Filter choices arrived: (portal pairs, status pairs). The panel: it keeps the tasks and knows what the signed-in account may do. The edit dialog while it is open (tests and screenshots look at it).</extracomment>
        <translation>自分のアカウントのステータスは変更できません。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/account_text.py" line="+18"/>
        <source>“%1” &lt;%2&gt;</source>
        <translation>「%1」&lt;%2&gt;</translation>
    </message>
</context>
<context>
    <name>AdminErrors</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/common.py" line="+21"/>
        <source>The server refused: your role does not allow this action. Ask a workspace owner for the permission.</source>
        <extracomment>Clearer summaries for the codes these panels meet (per-panel overrides win).</extracomment>
        <translation>サーバーが拒否しました。あなたのロールではこの操作は許可されていません。ワークスペースのオーナーに権限を依頼してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not found: the item does not exist (any more), or the id is wrong.</source>
        <translation>見つかりません。項目が存在しない（削除された）か、ID が正しくありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+3"/>
        <source>The server did not accept the input. Check the fields and try again.</source>
        <translation>サーバーが入力内容を受け付けませんでした。各項目を確認して、もう一度お試しください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your sign-in is no longer valid (code 4010). Sign in again.</source>
        <translation>サインインが無効になりました（コード 4010）。もう一度サインインしてください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>You are not signed in. Sign in again.</source>
        <translation>サインインしていません。もう一度サインインしてください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Not found (code 4040).</source>
        <translation>見つかりません（コード 4040）。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+33"/>
        <source>The server did not accept the portal (code 4000): a portal type and a domain without spaces are required; domain and remark have at most 255 characters each.</source>
        <extracomment>Domain and remark limits (section 8).</extracomment>
        <translation>サーバーがポータルを受け付けませんでした（コード 4000）。ポータル種別と空白を含まないドメインが必要です。ドメインと備考はそれぞれ 255 文字以内です。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server did not accept the portal: a portal type and a domain without spaces are required; domain and remark have at most 255 characters each.</source>
        <translation>サーバーがポータルを受け付けませんでした。ポータル種別と空白を含まないドメインが必要です。ドメインと備考はそれぞれ 255 文字以内です。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The institution was not found (code 4040). Check the institution id, or leave it empty to use your own institution.</source>
        <translation>機関が見つかりません（コード 4040）。機関 ID を確認するか、空欄にして自分の機関を使用してください。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+28"/>
        <source>The server refused: the OWNER role is protected and can never be deleted.</source>
        <extracomment>The 409 answers of role deletion, explained.</extracomment>
        <translation>サーバーが拒否しました。OWNER ロールは保護されているため、削除できません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refused: the role still has members. Give them another role first, then delete it.</source>
        <translation>サーバーが拒否しました。このロールにはまだメンバーがいます。先にメンバーに別のロールを割り当ててから削除してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The role does not exist any more: someone else deleted it.</source>
        <translation>このロールはすでに存在しません。他のユーザーが削除しました。</translation>
    </message>
</context>
<context>
    <name>BackupCodesDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/backup_codes.py" line="+205"/>
        <source>&amp;Copy</source>
        <translation>コピー(&amp;C)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Save…</source>
        <translation>保存(&amp;S)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Backup codes</source>
        <translation>バックアップコード</translation>
    </message>
    <message>
        <location line="-86"/>
        <source>Copied to the clipboard.</source>
        <translation>クリップボードにコピーしました。</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>Copy the codes</source>
        <translation>コードをコピー</translation>
    </message>
    <message>
        <location line="-39"/>
        <source>Could not save the file: %1</source>
        <translation>ファイルを保存できませんでした：%1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Keep these codes somewhere safe. Each code signs you in once when you cannot use your other methods. They are shown only now: after you close this window they cannot be shown again. Your previous codes no longer work.</source>
        <translation>これらのコードは安全な場所に保管してください。他の方法が使えないとき、各コードで 1 回だけサインインできます。コードが表示されるのは今回のみで、このウィンドウを閉じると再表示できません。以前のコードは使用できなくなりました。</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>New backup codes</source>
        <translation>新しいバックアップコード</translation>
    </message>
    <message>
        <location line="-61"/>
        <source>Save backup codes</source>
        <translation>バックアップコードの保存</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Save the codes to a file</source>
        <translation>コードをファイルに保存</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Saved to %1 (readable by you only).</source>
        <translation>%1 に保存しました（あなただけが読み取れます）。</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="-98"/>
        <source>System Portal backup codes (each works once)</source>
        <extracomment>The codes being written (``save_to``, started by the file dialog).</extracomment>
        <translation>System Portal バックアップコード（各コードは 1 回のみ使用可）</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Text files (*.txt)</source>
        <translation>テキスト ファイル (*.txt)</translation>
    </message>
</context>
<context>
    <name>BulkButton</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/menu.py" line="+49"/>
        <source>Bulk changes</source>
        <translation>一括変更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change many rows at once</source>
        <translation>複数の行をまとめて変更</translation>
    </message>
</context>
<context>
    <name>BulkDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+192"/>
        <source>Lists (*.csv *.txt);;All files (*)</source>
        <extracomment>The bulk windows open now, by job id (the Jobs panel shows a running one again). What a job run in this program changed, besides its area (``OperationRunner.publish``): the Jobs panel reads the job files again on it, and on no other topic. The actions each panel offers. &quot;accounts&quot; or &quot;invitations&quot;. The selected rows&apos; records (``Account`` or ``Invitation``). The account filter&apos;s query arguments (accounts), for &quot;all matching&quot;. How many rows match the filter, when known.</extracomment>
        <translation>リスト (*.csv *.txt);;すべてのファイル (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+293"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="-283"/>
        <source>Imported %1</source>
        <translation>%1 を読み込みました</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Enter the new value.</source>
        <translation>新しい値を入力してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Planning…</source>
        <translation>計画を作成中…</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>This session is read-only: no bulk change can be planned.</source>
        <translation>このセッションは閲覧専用です。一括変更は計画できません。</translation>
    </message>
    <message>
        <location line="+104"/>
        <source>This job is being run by another window or program.</source>
        <translation>このジョブは別のウィンドウまたはプログラムで実行中です。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 of %2: %3 done, %4 failed, %5 skipped, %6 unknown</source>
        <translation>%1 / %2：完了 %3、失敗 %4、スキップ %5、結果不明 %6</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Waiting %1 s, then reading back %2 targets whose outcome is unknown (the server may still be applying them)</source>
        <translation>%1 秒待ってから、結果が不明な対象 %2 件を読み直します（サーバーがまだ変更を適用している可能性があります）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 per second, about %2 s left</source>
        <translation>毎秒 %1 件、残り約 %2 秒</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Resume</source>
        <translation>再開</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+137"/>
        <source>Pause</source>
        <translation>一時停止</translation>
    </message>
    <message>
        <location line="-97"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV ファイル (*.csv)</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Line %1: %2</source>
        <translation>%1 行目：%2</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Bulk change: %1</source>
        <translation>一括変更：%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+136"/>
        <source>Suspend</source>
        <translation>一時停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activate</source>
        <translation>有効化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate</source>
        <translation>無効化</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Default language</source>
        <translation>既定の言語</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>タイムゾーン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>国・地域</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>備考</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Action:</source>
        <translation>操作(&amp;A):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;New status:</source>
        <translation>新しい状態(&amp;N):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Field:</source>
        <translation>項目(&amp;F):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Value:</source>
        <translation>値(&amp;V):</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="+411"/>
        <source>&amp;Reason:</source>
        <translation>理由(&amp;R):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Message:</source>
        <translation>メッセージ(&amp;M):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Expires after (days):</source>
        <translation>有効期限（日数）(&amp;E):</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>e.g. ja, Asia/Tokyo, JP</source>
        <translation>例：ja、Asia/Tokyo、JP</translation>
    </message>
    <message>
        <location line="+3"/>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="+2"/>
        <source>Optional; kept with the change</source>
        <translation>任意。変更とともに記録されます</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Targets:</source>
        <translation>対象:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+7"/>
        <source>The %1 selected rows</source>
        <translation>選択した %1 行</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>All %1 accounts matching the current filter</source>
        <translation>現在のフィルターに一致するすべてのアカウント（%1 件）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>All accounts matching the current filter</source>
        <translation>現在のフィルターに一致するすべてのアカウント</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Every pending invitation</source>
        <translation>保留中のすべての招待</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+2"/>
        <source>created at least this many days ago:</source>
        <translation>作成から経過した日数（以上）:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A list of emails or ids (paste it or import a CSV)</source>
        <translation>メールアドレスまたは ID のリスト（貼り付けるか CSV を読み込む）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>One email or id per line, or CSV with an email or id column</source>
        <translation>1 行に 1 つのメールアドレスまたは ID、または email 列か id 列のある CSV</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Emails or ids</source>
        <translation>メールアドレスまたは ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import a file…</source>
        <translation>ファイルを読み込む(&amp;I)…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+3"/>
        <source>&amp;Plan (dry run)</source>
        <translation>計画を作成（ドライラン）(&amp;P)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+1"/>
        <location line="+122"/>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location line="-66"/>
        <source>&amp;Export the plan…</source>
        <translation>計画をエクスポート(&amp;E)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Requests at once:</source>
        <translation>同時リクエスト数(&amp;R):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Back</source>
        <translation>戻る(&amp;B)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+3"/>
        <source>&amp;Run on %1 targets</source>
        <translation>%1 件の対象に実行(&amp;R)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+1"/>
        <source>The plan</source>
        <translation>計画</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Every target with what the change would do to it</source>
        <translation>各対象と、変更によってその対象に起こること</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Targets and their results</source>
        <translation>対象とその結果</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/dialog.py" line="+9"/>
        <source>Nothing has been sent. %1 targets will change; skipped: %2</source>
        <translation>まだ何も送信していません。%1 件の対象が変更されます。スキップ：%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/bulk/pages.py" line="+2"/>
        <source>&amp;Cancel the job</source>
        <translation>ジョブを取り消す(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save the result…</source>
        <translation>結果を保存(&amp;S)…</translation>
    </message>
</context>
<context>
    <name>BulkPlan</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/plan_model.py" line="+26"/>
        <source>Target</source>
        <translation>対象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>変更前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New</source>
        <translation>変更後</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason or error</source>
        <translation>理由またはエラー</translation>
    </message>
</context>
<context>
    <name>BulkWords</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/words.py" line="+12"/>
        <source>The signed-in account itself</source>
        <translation>サインイン中のアカウント自身</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already has the new value</source>
        <translation>すでに変更後の値です</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Its current status does not allow this</source>
        <translation>現在の状態ではこの操作はできません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not found</source>
        <translation>見つかりません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Listed more than once</source>
        <translation>重複して記載されています</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already accepted, declined, expired or cancelled</source>
        <translation>承諾、辞退、期限切れ、または取り消し済みです</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A pending invitation exists</source>
        <translation>保留中の招待があります</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Neither an email nor an id</source>
        <translation>メールアドレスでも ID でもありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The expiry is not 1 to 365 whole days</source>
        <translation>有効期限が 1～365 の整数の日数ではありません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The file is not UTF-8 text.</source>
        <translation>ファイルが UTF-8 のテキストではありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file is too large (64 MiB at most).</source>
        <translation>ファイルが大きすぎます（最大 64 MiB）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The list has more than 200,000 lines.</source>
        <translation>リストが 200,000 行を超えています。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No column is named email or id.</source>
        <translation>email または id という名前の列がありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The CSV cannot be read (an unclosed quote?).</source>
        <translation>CSV を読み取れません（引用符が閉じていない可能性があります）。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The list names nothing.</source>
        <translation>リストが空です。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Planned</source>
        <translation>予定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>スキップ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Being sent</source>
        <translation>送信中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>完了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown outcome</source>
        <translation>結果不明</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled</source>
        <translation>取り消し済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Running</source>
        <translation>実行中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused</source>
        <translation>一時停止中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished</source>
        <translation>完了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Interrupted</source>
        <translation>中断</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Paused.</source>
        <translation>一時停止しました。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused: the server cannot be reached. Nothing is lost; resume when it is.</source>
        <translation>一時停止しました：サーバーに接続できません。何も失われていません。接続が戻ったら再開してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Paused: the sign-in has ended.</source>
        <translation>一時停止しました：サインインが終了しました。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Paused: the program stopped the job.</source>
        <translation>一時停止しました：プログラムがジョブを停止しました。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Change status</source>
        <translation>状態を変更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset passwords</source>
        <translation>パスワードをリセット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set a field</source>
        <translation>項目を設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite</source>
        <translation>招待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel invitations</source>
        <translation>招待を取り消す</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revert</source>
        <translation>元に戻す</translation>
    </message>
</context>
<context>
    <name>CampaignConfirm</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/confirmations.py" line="+23"/>
        <source>Items still undecided: %n. Sign off anyway?</source>
        <translation>未決定の項目：%n 件。それでもサインオフしますか？</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Signing off freezes the file: the undecided items stay undecided for good, shown as not reviewed in the evidence pack, and no one can decide them in this file. Every decision made is frozen as it is.</source>
        <translation>サインオフするとファイルが凍結されます。未決定の項目は未決定のまま確定し、証跡パックでは「未レビュー」と表示され、このファイルでは誰も判断できなくなります。行った判断はすべてそのまま凍結されます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Sign off with %n undecided</source>
        <translation>未決定 %n 件のままサインオフ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Every item is decided. Sign off?</source>
        <translation>すべての項目が決定済みです。サインオフしますか？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing off freezes every decision of the file as it is: no one can change them in this file afterwards.</source>
        <translation>サインオフすると、このファイルのすべての判断が現在の状態で凍結されます。以後、このファイルでは誰も変更できません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sign off</source>
        <translation>サインオフ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sign off “%1”</source>
        <translation>「%1」をサインオフ</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Signed-off Revokes not carried out: %n. Close the campaign anyway?</source>
        <translation>サインオフ済みで未実行の剥奪：%n 件。それでもキャンペーンを終了しますか？</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Close with %n not carried out</source>
        <translation>未実行 %n 件のまま終了</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Close the campaign?</source>
        <translation>キャンペーンを終了しますか？</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the campaign</source>
        <translation>キャンペーンを終了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Closing takes a snapshot of the server, checks every decision against it and makes every decision final. Remediation is no longer possible from this campaign: a Revoke not carried out by then stays not done, and the closing check says so.</source>
        <translation>終了すると、サーバーのスナップショットを取得し、それに照らしてすべての判断を確認し、すべての判断を確定します。以後、このキャンペーンからは是正できません。それまでに実行されなかった剥奪は未完了のまま残り、終了時の確認にそう表示されます。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Close “%1”</source>
        <translation>「%1」を終了</translation>
    </message>
</context>
<context>
    <name>CampaignCreate</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/create_dialog.py" line="+116"/>
        <source>There is no snapshot yet: take one in Snapshots first.</source>
        <translation>スナップショットがまだありません。先に「スナップショット」で取得してください。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Give the campaign a name.</source>
        <translation>キャンペーンに名前を付けてください。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>New access-review campaign</source>
        <translation>新しいアクセスレビューキャンペーン</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Snapshot:</source>
        <translation>スナップショット(&amp;S):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Due:</source>
        <translation>期限(&amp;D):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Revoke by:</source>
        <translation>剥奪の方法(&amp;R):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;File:</source>
        <translation>ファイル(&amp;F):</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Suspending the account</source>
        <translation>アカウントを一時停止する</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Deactivating the account</source>
        <translation>アカウントを無効化する</translation>
    </message>
</context>
<context>
    <name>CampaignIdentity</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/identity.py" line="+52"/>
        <source>No key: this computer has no usable keyring to decide with.</source>
        <translation>鍵がありません：このコンピューターには判断に使えるキーリングがありません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reading this installation&apos;s key…</source>
        <translation>このインストールの鍵を読み取っています…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (signed in), with this installation&apos;s key %2</source>
        <translation>%1（サインイン中）、このインストールの鍵 %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This installation&apos;s key %1 (not signed in)</source>
        <translation>このインストールの鍵 %1（サインインしていません）</translation>
    </message>
</context>
<context>
    <name>CampaignRemediation</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediation_dialog.py" line="+45"/>
        <source>Reviewer</source>
        <translation>レビュー担当者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust</source>
        <translation>信頼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed in as</source>
        <translation>サインインしていたアカウント</translation>
    </message>
    <message>
        <location line="+135"/>
        <source>Remediate “%1”</source>
        <extracomment>Plan the remediation (every signer trusted). The trusted keys changed: check the sign-offs again.</extracomment>
        <translation>「%1」を是正</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Nothing in this campaign is signed off: there is nothing to remediate.</source>
        <translation>このキャンペーンにはサインオフがありません。是正するものはありません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign changed since it was signed off: it is not remediated. Verify names what changed.</source>
        <translation>サインオフ後にキャンペーンが変更されています。是正は行いません。「検証」で変更箇所を確認できます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Remediation is refused until every signer&apos;s key is trusted here; not trusted: %n. Compare each fingerprint with the reviewer&apos;s by another channel (in person or by telephone), then trust the key.</source>
        <translation>すべての署名者の鍵がここで信頼されるまで、是正は拒否されます。信頼されていない鍵：%n 件。各フィンガープリントをレビュー担当者のものと別の経路（対面または電話）で照合してから、鍵を信頼してください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A sign-off was made by an earlier version of the program and does not cover the revocation action: the reviewer signs off again with this version.</source>
        <translation>以前のバージョンのプログラムで行われたサインオフがあり、剥奪の操作を対象にしていません。レビュー担当者がこのバージョンでサインオフし直してください。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Separation of duties: you are one of the reviewers of what this remediation carries out. Another administrator should run it.</source>
        <translation>職務分掌：あなたはこの是正で実行される内容のレビュー担当者の一人です。別の管理者が実行してください。</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>The signed-off Revokes are carried out as a bulk job, planned from each account&apos;s state now. Check who signed off first: compare each key&apos;s fingerprint with the one the reviewer gave you by another channel.</source>
        <translation>サインオフ済みの剥奪は、各アカウントの現在の状態から計画した一括ジョブとして実行されます。まず署名者を確認してください。各鍵のフィンガープリントを、レビュー担当者から別の経路で受け取ったものと照合します。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sign-offs</source>
        <translation>サインオフ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy</source>
        <translation>コピー(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the fingerprint</source>
        <translation>フィンガープリントをコピー</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Key &amp;fingerprint:</source>
        <translation>鍵のフィンガープリント(&amp;F):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Trust this key…</source>
        <translation>この鍵を信頼(&amp;T)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Trusted &amp;keys…</source>
        <translation>信頼済みの鍵(&amp;K)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Plan the remediation</source>
        <translation>是正を計画(&amp;P)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Separation of duties</source>
        <translation>職務分掌</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Why remediation is refused</source>
        <translation>是正が拒否される理由</translation>
    </message>
</context>
<context>
    <name>CampaignSigners</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/signers.py" line="+17"/>
        <source>This installation&apos;s key</source>
        <translation>このインストールの鍵</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trusted as “%1”</source>
        <translation>「%1」として信頼済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The key given for this check</source>
        <translation>この確認用に指定された鍵</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not trusted by this installation</source>
        <translation>このインストールでは信頼されていません</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 decided %2 of these Revokes with this installation&apos;s key.</source>
        <translation>%1 がこのインストールの鍵で、これらの剥奪のうち %2 件を判断しました。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 decided %2 of these Revokes as your server account.</source>
        <translation>%1 があなたのサーバーアカウントで、これらの剥奪のうち %2 件を判断しました。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Signed items name sign-off %1, which this file does not have: they count as signed by nobody.</source>
        <extracomment>What a verification found, by the engine&apos;s code (``%1``, ``%2``: its parameters).</extracomment>
        <translation>署名済みの項目がサインオフ %1 を指していますが、このファイルにはありません。これらの項目は誰もサインオフしていないものとみなします。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>decided by its own account: %1</source>
        <translation>本人のアカウントで決定：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the sign-off by %1 of %2 does not verify: it was changed</source>
        <translation>%1 による %2 のサインオフを検証できません（変更されています）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the sign-off by %1 was made with another key (%2)</source>
        <translation>%1 のサインオフは別の鍵（%2）で行われています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>changed: %1</source>
        <translation>変更あり：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed: %1</source>
        <translation>削除：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added: %1</source>
        <translation>追加：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its decision in the queue is not the history&apos;s: %1</source>
        <translation>キュー上の決定が履歴と一致しません：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>… and %1 more items</source>
        <translation>…ほか %1 件の項目</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>%1 (account %2)</source>
        <translation>%1（アカウント %2）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not signed in</source>
        <translation>サインインしていません</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (%2), key %3: %4</source>
        <translation>%1（%2）、鍵 %3：%4</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 signed off with this installation&apos;s key.</source>
        <translation>%1 がこのインストールの鍵でサインオフしました。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 signed off as your server account.</source>
        <translation>%1 があなたのサーバーアカウントでサインオフしました。</translation>
    </message>
</context>
<context>
    <name>Campaigns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+16"/>
        <source>All items</source>
        <translation>すべての項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Undecided</source>
        <translation>未決定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flagged</source>
        <translation>フラグ付き</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept</source>
        <translation>維持</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoked</source>
        <translation>剥奪</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t know</source>
        <translation>判断できない</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+24"/>
        <source>%1 carries triggers, views, tables or indexes this program never puts in a campaign. It was refused: they could change decisions behind your back. Ask for the file again from its owner.</source>
        <translation>%1 には、このプログラムがキャンペーンに入れることのないトリガー、ビュー、テーブルまたはインデックスが含まれているため、拒否しました。知らないうちに判断が変更されるおそれがあります。ファイルの所有者にもう一度送ってもらってください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 is not laid out as this program&apos;s campaign files are: a table or an index is missing or defined otherwise. It was refused. Ask for the file again from its owner.</source>
        <translation>%1 はこのプログラムのキャンペーンファイルと構造が異なります（テーブルまたはインデックスが欠けているか、定義が異なります）。拒否しました。ファイルの所有者にもう一度送ってもらってください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 is damaged: the database&apos;s own check or its settings fail. Ask for the file again from its owner.</source>
        <translation>%1 は破損しています（データベース自体の検査または設定に問題があります）。ファイルの所有者にもう一度送ってもらってください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reading %1 took too long: it was given up. A campaign file opens in moments; this one may be built to hold the program.</source>
        <translation>%1 の読み取りに時間がかかりすぎたため、中止しました。キャンペーンファイルは通常すぐに開きます。このファイルはプログラムを止めるように作られている可能性があります。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is your own account: another reviewer decides it. Nothing was recorded.</source>
        <extracomment>A decision refused (``%1``: the item&apos;s name).</extracomment>
        <translation>%1 はあなた自身のアカウントです。別のレビュー担当者が判断します。何も記録されていません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is signed off: its decision is frozen. Nothing was recorded.</source>
        <translation>%1 はサインオフ済みです。判断は確定しています。何も記録されていません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The campaign is closed: decisions are final. Nothing was recorded.</source>
        <translation>キャンペーンは終了しています。判断は確定済みです。何も記録されていません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not in this campaign.</source>
        <translation>%1 はこのキャンペーンに含まれていません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign is already signed off with another key.</source>
        <translation>このキャンペーンは別の鍵ですでにサインオフされています。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The campaign refused it: %1</source>
        <translation>キャンペーンが拒否しました：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A sign-off is by a key this installation does not trust. Compare its fingerprint with the reviewer&apos;s by another channel, then trust the key (Remediate… lists the signers).</source>
        <translation>このインストールが信頼していない鍵によるサインオフがあります。フィンガープリントをレビュー担当者のものと別の経路で照合してから、鍵を信頼してください（「是正…」に署名者が表示されます）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A sign-off was made by an earlier version of the program and does not cover the revocation action: the reviewer signs off again with this version.</source>
        <translation>以前のバージョンのプログラムで行われたサインオフがあり、剥奪の操作を対象にしていません。レビュー担当者がこのバージョンでサインオフし直してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>More items are undecided than when you were asked: nothing was signed. Sign off again to be asked anew.</source>
        <translation>確認したときより未決定の項目が増えています。何も署名していません。もう一度サインオフすると改めて確認します。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>This campaign&apos;s scope was taken on another server (%1) than the one you are signed in to (%2): nothing was read or planned. Sign in to the campaign&apos;s server to remediate it.</source>
        <translation>このキャンペーンの範囲は、サインイン中のサーバー（%2）とは別のサーバー（%1）で取得されています。何も読み取らず、計画もしていません。キャンペーンのサーバーにサインインしてから是正してください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>An item was decided by the reviewer&apos;s own account: another reviewer decides it. Nothing was signed.</source>
        <translation>レビュー担当者自身のアカウントで決定された項目があります。別のレビュー担当者が決定します。何もサインオフしていません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An item named is not in this campaign.</source>
        <translation>指定された項目はこのキャンペーンに含まれていません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The file is part of another campaign: nothing of it was used.</source>
        <translation>このファイルは別のキャンペーンのものです。その内容は何も使用していません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>An item is decided differently in the two files: nothing of the file was merged.</source>
        <translation>2 つのファイルで決定が異なる項目があります。このファイルの内容は何も統合していません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signed-off Revokes are not carried out yet: closing would leave them for good.</source>
        <translation>サインオフ済みの剥奪がまだ実行されていません。終了すると実行されないままになります。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>A campaign needs a name.</source>
        <extracomment>Why an input was refused (BAD_INPUT), by the engine&apos;s reason (``%1``: its parameter).</extracomment>
        <translation>キャンペーンには名前が必要です。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a date (YYYY-MM-DD).</source>
        <translation>%1 は日付（YYYY-MM-DD）ではありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A revocation suspends or deactivates the account.</source>
        <translation>剥奪はアカウントの一時停止または無効化です。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The days after which an account counts as not updated must be at least 1.</source>
        <translation>アカウントを未更新とみなす日数は 1 以上にしてください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The snapshot %1 cannot be read: take a new one.</source>
        <translation>スナップショット %1 を読み取れません。新しく取得してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 exists already: a campaign file is never overwritten. Choose another.</source>
        <translation>%1 はすでに存在します。キャンペーンファイルは上書きしません。別の名前を選んでください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The earlier file %1 is neither a snapshot nor a campaign that can be read.</source>
        <translation>以前のファイル %1 は、読み取れるスナップショットでもキャンペーンでもありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is not a decision: Keep, Revoke or Don&apos;t know.</source>
        <translation>%1 は決定ではありません（保持、剥奪、わからない）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A justification has at most %1 characters.</source>
        <translation>理由は %1 文字以内です。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A reviewer&apos;s name is one line of text (an e-mail address, say).</source>
        <translation>レビュー担当者の名前は 1 行のテキストです（メールアドレスなど）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server gave an account id or e-mail address that is not one line.</source>
        <translation>サーバーが返したアカウント ID またはメールアドレスが 1 行ではありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The campaign has no items to sign off.</source>
        <translation>キャンペーンにサインオフする項目がありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The closing snapshot %1 cannot be read.</source>
        <translation>終了時のスナップショット %1 を読み取れません。</translation>
    </message>
    <message>
        <location line="-123"/>
        <source>The file %1 does not exist.</source>
        <extracomment>A file that cannot be opened as a campaign (``%1``: the file&apos;s name).</extracomment>
        <translation>ファイル %1 は存在しません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a campaign file, or it is damaged.</source>
        <translation>%1 はキャンペーンファイルではないか、破損しています。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was made by a newer version of the program.</source>
        <translation>%1 は新しいバージョンのプログラムで作成されています。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+23"/>
        <source>Revoked and done</source>
        <translation>剥奪済み・完了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoked, not done</source>
        <translation>剥奪・未完了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept, changed meanwhile</source>
        <translation>維持・その間に変更あり</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Appeared after the scope</source>
        <translation>範囲の後に出現</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+130"/>
        <source>A justification is required to revoke.</source>
        <translation>剥奪には理由が必要です。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>A justification is required for Don&apos;t know.</source>
        <translation>「判断できない」には理由が必要です。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A justification is required to keep a flagged item.</source>
        <translation>フラグ付きの項目を維持するには理由が必要です。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+248"/>
        <source>The campaign cannot be read now.</source>
        <extracomment>Who reviews: this installation&apos;s key and the signed-in account (``identity.py``). This computer has no usable keyring: nobody can decide here. The question asked before a step (sign off, close) while it shows. Decisions are written by one thread of their own (its own connection to the file): the fsync of each transaction never holds the loop; one decision at a time.</extracomment>
        <translation>現在キャンペーンを読み取れません。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/open_step.py" line="+31"/>
        <source>Campaigns (*.review);;All files (*)</source>
        <extracomment>Seconds the engine&apos;s checks of a file may take when the panel opens it (a 100,000-item file takes well under one); past them, and a few more, the panel gives up waiting.</extracomment>
        <translation>キャンペーン (*.review);;すべてのファイル (*)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>This file cannot be used as a campaign.</source>
        <translation>このファイルはキャンペーンとして使用できません。</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>The campaign could not be created.</source>
        <translation>キャンペーンを作成できませんでした。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+43"/>
        <location line="+39"/>
        <source>Any flag</source>
        <extracomment>A filter changed (the text after a pause of typing).</extracomment>
        <translation>すべてのフラグ</translation>
    </message>
    <message>
        <location line="-35"/>
        <location line="+37"/>
        <source>Any portal</source>
        <translation>すべてのポータル</translation>
    </message>
    <message>
        <location line="-33"/>
        <location line="+36"/>
        <source>Any institution</source>
        <translation>すべての機関</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+123"/>
        <source>The decision was refused.</source>
        <translation>判断は拒否されました。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_view.py" line="+130"/>
        <source>Every item the filter shows is decided.</source>
        <extracomment>What each key of the queue decides. The current row or the selection moved (once per turn of the loop). K, R or D pressed in the queue: the :class:`Decision`. J pressed in the queue.</extracomment>
        <translation>フィルターで表示されるすべての項目が判断済みです。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>%1 items selected: one decision and one justification for all.</source>
        <translation>%1 件の項目を選択中：すべてに同じ判断と同じ理由を適用します。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Your own account: another reviewer decides it.</source>
        <translation>あなた自身のアカウントです。別のレビュー担当者が判断します。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 by %2 on %3: %4</source>
        <translation>%1（%2、%3）：%4</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/decision_form.py" line="+85"/>
        <source>A justification is required for Revoke, for Don&apos;t know, and for Keep on a flagged item.</source>
        <extracomment>Keep, Revoke or Don&apos;t know clicked: the :class:`Decision`. Next undecided clicked.</extracomment>
        <translation>剥奪、判断できない、およびフラグ付き項目の維持には理由が必要です。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>A justification is required for Revoke and for Don&apos;t know.</source>
        <translation>剥奪と判断できないには理由が必要です。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/progress_line.py" line="+19"/>
        <source>%1 of %2 decided: %3 kept, %4 revoked, %5 don&apos;t know.</source>
        <translation>%2 件中 %1 件判断済み：維持 %3、剥奪 %4、判断できない %5。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>By reviewer: %1.</source>
        <translation>レビュー担当者別：%1。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Due %1. Closed.</source>
        <translation>期限 %1。終了済み。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Due %1: overdue, %2 items late.</source>
        <translation>期限 %1：期限超過、%2 件が遅延。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Due %1.</source>
        <translation>期限 %1。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+39"/>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="-96"/>
        <source>The campaign is closed: decisions are final.</source>
        <extracomment>A step of the campaign (sign off, remediate, close) refused.</extracomment>
        <translation>キャンペーンは終了しています。判断は確定済みです。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signed off: the decisions are frozen.</source>
        <translation>サインオフ済み：判断は確定しています。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Sign in to do this: it reads the server.</source>
        <translation>サインインしてから実行してください。サーバーを読み取ります。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+31"/>
        <source>The campaign was not signed off.</source>
        <translation>キャンペーンはサインオフされませんでした。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Signed off by %1: %2 items, key %3. Give this fingerprint to the administrator by another channel.</source>
        <translation>%1 がサインオフしました：%2 件、鍵 %3。このフィンガープリントを別の経路で管理者に伝えてください。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediate_step.py" line="+54"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+24"/>
        <source>The sign-offs were not checked.</source>
        <translation>サインオフは確認されませんでした。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/refusals.py" line="+4"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+6"/>
        <source>Nothing in this campaign is signed off yet.</source>
        <translation>このキャンペーンにはまだサインオフがありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="+20"/>
        <source>The campaign changed since it was signed off.</source>
        <translation>サインオフ後にキャンペーンが変更されています。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/remediate_step.py" line="+17"/>
        <source>Nothing was remediated.</source>
        <translation>是正は行われませんでした。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>You reviewed this campaign.</source>
        <translation>あなたはこのキャンペーンをレビューしました。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No signed-off Revoke to carry out.</source>
        <translation>実行すべきサインオフ済みの剥奪はありません。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+43"/>
        <source>The campaign was not closed.</source>
        <translation>キャンペーンは終了されませんでした。</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Closed. Revoked and done: %1; not done: %2; kept, changed meanwhile: %3; appeared after the scope: %4.</source>
        <translation>終了しました。剥奪済み・完了：%1、未完了：%2、維持・その間に変更あり：%3、範囲の後に出現：%4。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+63"/>
        <source>Open a campaign file…</source>
        <translation>キャンペーンファイルを開く…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New campaign from a snapshot…</source>
        <translation>スナップショットから新しいキャンペーン…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No campaign open</source>
        <translation>キャンペーンが開かれていません</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/sign_step.py" line="-15"/>
        <source>The sign-offs verify, but a signer&apos;s key is not trusted by this installation: remediation is refused until it is.</source>
        <translation>サインオフは検証できましたが、署名者の鍵がこのインストールで信頼されていません。信頼されるまで是正は拒否されます。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The sign-offs verify:
%1</source>
        <translation>サインオフを検証しました：
%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+3"/>
        <source>Reviewer:</source>
        <translation>レビュー担当者:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/decision_form.py" line="+11"/>
        <source>&amp;Justification:</source>
        <translation>理由(&amp;J):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Why (required for Revoke, Don&apos;t know, and Keep on a flagged item)</source>
        <translation>理由（剥奪、判断できない、フラグ付き項目の維持では必須）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Keep</source>
        <translation>維持(&amp;K)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Keep the access (K in the queue)</source>
        <translation>アクセスを維持する（キューでは K）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Revoke</source>
        <translation>剥奪(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Revoke the access (R in the queue)</source>
        <translation>アクセス権を剥奪（キューでは R）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Don&apos;t know</source>
        <translation>判断できない(&amp;D)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Someone else must decide (D in the queue)</source>
        <translation>他の人が判断する必要があります（キューでは D）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Next undecided</source>
        <translation>次の未決定(&amp;N)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>N in the queue; J moves to the justification, Esc back</source>
        <translation>キューでは N。J で理由欄へ、Esc で戻る</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+3"/>
        <source>Sign off…</source>
        <translation>サインオフ…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verify</source>
        <translation>検証</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remediate…</source>
        <translation>是正…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Close the campaign</source>
        <translation>キャンペーンを終了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>証跡パック…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="-13"/>
        <source>Search e-mail, name or id</source>
        <translation>メール、名前、ID で検索</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="-46"/>
        <source>Item</source>
        <translation>項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State at closing</source>
        <translation>終了時の状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Detail</source>
        <translation>詳細</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_view.py" line="+12"/>
        <source>Review queue</source>
        <translation>レビューキュー</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/filters.py" line="+17"/>
        <source>Show items</source>
        <translation>表示する項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter by flag</source>
        <translation>フラグで絞り込み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter by portal</source>
        <translation>ポータルで絞り込み</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by institution</source>
        <translation>機関で絞り込み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search the queue</source>
        <translation>キューを検索</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/close_step.py" line="+3"/>
        <source>Closing check</source>
        <translation>終了時の確認</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/panel.py" line="+4"/>
        <source>Campaigns</source>
        <translation>キャンペーン</translation>
    </message>
</context>
<context>
    <name>CampaignsTour</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/tour.py" line="+40"/>
        <source>Q4 access review</source>
        <extracomment>Turns of 20 ms a stop waits for its question to show (30 s).</extracomment>
        <translation>第4四半期アクセスレビュー</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Still on the support team</source>
        <translation>現在もサポートチームに所属</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Left the company in October</source>
        <translation>10月に退職</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Contractor: ask the project lead</source>
        <translation>委託社員：プロジェクトリーダーに確認</translation>
    </message>
</context>
<context>
    <name>ChangePassword</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/change_password.py" line="+41"/>
        <source>Enter your current password.</source>
        <translation>現在のパスワードを入力してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new password must differ from the current one.</source>
        <translation>新しいパスワードには現在と異なるパスワードを指定してください。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Your password was changed.</source>
        <translation>パスワードを変更しました。</translation>
    </message>
    <message>
        <location line="+75"/>
        <location line="+24"/>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location line="-15"/>
        <location line="+13"/>
        <source>Change password</source>
        <translation>パスワードの変更</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Change your password</source>
        <translation>パスワードの変更</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Enter your current password, then the new one twice.</source>
        <translation>現在のパスワードを入力し、新しいパスワードを 2 回入力してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Current password:</source>
        <translation>現在のパスワード(&amp;C):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;New password:</source>
        <translation>新しいパスワード(&amp;N):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repeat it:</source>
        <translation>もう一度入力(&amp;R):</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Current password</source>
        <translation>現在のパスワード</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New password</source>
        <translation>新しいパスワード</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Repeat the new password</source>
        <translation>新しいパスワード（確認）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Change the password</source>
        <translation>パスワードを変更</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Close this dialog</source>
        <translation>このダイアログを閉じる</translation>
    </message>
</context>
<context>
    <name>ChannelColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channels_model.py" line="+101"/>
        <source>Active</source>
        <translation>有効</translation>
    </message>
    <message>
        <location line="-51"/>
        <source>Category</source>
        <translation>カテゴリ</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>Default</source>
        <translation>既定</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Delivers via</source>
        <translation>配信方法</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Institution</source>
        <translation>機関</translation>
    </message>
    <message>
        <location line="-30"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Updated</source>
        <translation>更新日時</translation>
    </message>
</context>
<context>
    <name>ChannelDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channel_dialog.py" line="+308"/>
        <source>&amp;Category:</source>
        <translation>カテゴリ(&amp;C):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Description:</source>
        <translation>説明(&amp;D):</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>&amp;Institution:</source>
        <translation>機関(&amp;I):</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&amp;Test connection</source>
        <translation>接続テスト(&amp;T)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Ask the server to check the mail-server settings</source>
        <translation>メールサーバーの設定をサーバーで確認します</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+1"/>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>Category</source>
        <translation>カテゴリ</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Checks the mail-server settings with the server, then saves</source>
        <translation>メールサーバーの設定をサーバーで確認してから保存します</translation>
    </message>
    <message>
        <location line="-147"/>
        <source>Choose a category.</source>
        <translation>カテゴリを選択してください。</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>Default channel</source>
        <translation>既定のチャネル</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Default channel of its category</source>
        <translation>このカテゴリの既定のチャネルにする</translation>
    </message>
    <message>
        <location line="-124"/>
        <location line="+111"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Edit channel “%1”</source>
        <translation>チャネル「%1」の編集</translation>
    </message>
    <message>
        <location line="+63"/>
        <source>Input problems</source>
        <translation>入力内容の問題</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>Institution</source>
        <translation>機関</translation>
    </message>
    <message>
        <location line="-117"/>
        <location line="+115"/>
        <source>Name</source>
        <extracomment>(protocol, keyword arguments of the client&apos;s validate operation)</extracomment>
        <translation>名前</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>New notification channel</source>
        <translation>新しい通知チャネル</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>S&amp;tatus:</source>
        <translation>ステータス(&amp;T):</translation>
    </message>
    <message>
        <location line="+37"/>
        <location line="+1"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Server check</source>
        <translation>サーバーでの確認</translation>
    </message>
    <message>
        <location line="-25"/>
        <location line="+2"/>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Test connection</source>
        <translation>接続テスト</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Your institution</source>
        <translation>自分の機関</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>✔ %1 check passed: %2</source>
        <translation>✔ %1 の確認に成功しました：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>✘ %1 check failed: %2</source>
        <translation>✘ %1 の確認に失敗しました：%2</translation>
    </message>
</context>
<context>
    <name>ChannelSettings</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/settings_forms.py" line="+239"/>
        <source>&amp;From address:</source>
        <translation>送信元アドレス(&amp;F):</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>&amp;Host:</source>
        <translation>ホスト(&amp;H):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Port:</source>
        <translation>ポート(&amp;P):</translation>
    </message>
    <message>
        <location line="+168"/>
        <source>&amp;Provider:</source>
        <translation>プロバイダー(&amp;P):</translation>
    </message>
    <message>
        <location line="-164"/>
        <source>&amp;Security:</source>
        <translation>セキュリティ(&amp;S):</translation>
    </message>
    <message>
        <location line="+224"/>
        <source>&amp;URL:</source>
        <translation>URL(&amp;U):</translation>
    </message>
    <message>
        <location line="-220"/>
        <source>&amp;Username:</source>
        <translation>ユーザー名(&amp;U):</translation>
    </message>
    <message>
        <location line="+161"/>
        <source>API &amp;key:</source>
        <translation>API キー(&amp;K):</translation>
    </message>
    <message>
        <location line="-14"/>
        <location line="+19"/>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <location line="-154"/>
        <source>From &amp;name:</source>
        <translation>送信者名(&amp;N):</translation>
    </message>
    <message>
        <location line="-38"/>
        <location line="+35"/>
        <source>From address</source>
        <translation>送信元アドレス</translation>
    </message>
    <message>
        <location line="-30"/>
        <location line="+34"/>
        <source>From name</source>
        <translation>送信者名</translation>
    </message>
    <message>
        <location line="-54"/>
        <location line="+30"/>
        <source>Host</source>
        <extracomment>The usual port of each security mode, for SMTP and for IMAP.</extracomment>
        <translation>ホスト</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>IMAP</source>
        <translation>IMAP</translation>
    </message>
    <message>
        <location line="+77"/>
        <source>Incoming mail (IMAP)</source>
        <translation>受信メール (IMAP)</translation>
    </message>
    <message>
        <location line="-62"/>
        <source>None (unencrypted)</source>
        <translation>なし（暗号化なし）</translation>
    </message>
    <message>
        <location line="+59"/>
        <source>Outgoing mail (SMTP)</source>
        <translation>送信メール (SMTP)</translation>
    </message>
    <message>
        <location line="-89"/>
        <source>Pass&amp;word:</source>
        <translation>パスワード(&amp;W):</translation>
    </message>
    <message>
        <location line="-36"/>
        <location line="+37"/>
        <source>Password</source>
        <translation>パスワード</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Port</source>
        <translation>ポート</translation>
    </message>
    <message>
        <location line="+150"/>
        <location line="+22"/>
        <source>Provider</source>
        <translation>プロバイダー</translation>
    </message>
    <message>
        <location line="-148"/>
        <source>SMTP</source>
        <translation>SMTP</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>STARTTLS (upgrade to encryption)</source>
        <translation>STARTTLS（接続後に暗号化）</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Security</source>
        <translation>セキュリティ</translation>
    </message>
    <message>
        <location line="+165"/>
        <source>Sender &amp;id:</source>
        <translation>送信者 ID(&amp;I):</translation>
    </message>
    <message>
        <location line="-12"/>
        <location line="+17"/>
        <source>Sender id</source>
        <translation>送信者 ID</translation>
    </message>
    <message>
        <location line="+98"/>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Settings (JSON)</source>
        <translation>設定 (JSON)</translation>
    </message>
    <message>
        <location line="-49"/>
        <source>Signing &amp;secret:</source>
        <translation>署名シークレット(&amp;S):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Signing secret</source>
        <translation>署名シークレット</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Stored secrets show as %1; leave them so to keep them.</source>
        <translation>保存済みのシークレットは %1 と表示されます。変更しない場合はそのままにしてください。</translation>
    </message>
    <message>
        <location line="-244"/>
        <source>TLS (encrypted from the start)</source>
        <translation>TLS（最初から暗号化）</translation>
    </message>
    <message>
        <location line="+180"/>
        <location line="+14"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="-125"/>
        <source>Use incoming mail (IMAP)</source>
        <translation>受信メール (IMAP) を使用</translation>
    </message>
    <message>
        <location line="-137"/>
        <location line="+39"/>
        <source>Username</source>
        <translation>ユーザー名</translation>
    </message>
</context>
<context>
    <name>ChannelState</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+32"/>
        <source>Secure Channel: none</source>
        <translation>セキュアチャネル：なし</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel: established</source>
        <translation>セキュアチャネル：確立済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel: failed</source>
        <translation>セキュアチャネル：失敗</translation>
    </message>
</context>
<context>
    <name>ChannelTypeColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/types_model.py" line="+25"/>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <location line="-32"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Display order</source>
        <translation>表示順</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enabled</source>
        <translation>有効</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Icon</source>
        <translation>アイコン</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Updated</source>
        <translation>更新日時</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Value</source>
        <translation>値</translation>
    </message>
</context>
<context>
    <name>ChannelTypeDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/type_dialog.py" line="+210"/>
        <source>&amp;Code:</source>
        <translation>コード(&amp;C):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Description:</source>
        <translation>説明(&amp;D):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Icon URL:</source>
        <translation>アイコン URL(&amp;I):</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>Automatic</source>
        <translation>自動</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+2"/>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+76"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>Display &amp;order:</source>
        <translation>表示順(&amp;O):</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Display order</source>
        <translation>表示順</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>E&amp;xtra settings (JSON):</source>
        <translation>追加設定 (JSON)(&amp;X):</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Edit channel type %1</source>
        <translation>チャネルタイプ %1 の編集</translation>
    </message>
    <message>
        <location line="-53"/>
        <location line="+71"/>
        <source>Extra settings</source>
        <translation>追加設定</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+73"/>
        <source>Icon URL</source>
        <translation>アイコン URL</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Input problems</source>
        <translation>入力内容の問題</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+80"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>New channel type</source>
        <translation>新しいチャネルタイプ</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Optional, for example {&quot;retries&quot;: 3}</source>
        <translation>任意。例：{&quot;retries&quot;: 3}</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+1"/>
        <source>Save</source>
        <translation>保存</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>e.g. TEAMS_CHAT</source>
        <translation>例：TEAMS_CHAT</translation>
    </message>
</context>
<context>
    <name>ChannelTypesPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/types_panel.py" line="+191"/>
        <source>&amp;Code:</source>
        <translation>コード(&amp;C):</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>&amp;Delete…</source>
        <translation>削除(&amp;D)…</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>&amp;Edit…</source>
        <translation>編集(&amp;E)…</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>&amp;New…</source>
        <translation>新規(&amp;N)…</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>&amp;Status:</source>
        <translation>ステータス(&amp;S):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Any code</source>
        <translation>すべて</translation>
    </message>
    <message>
        <location line="-73"/>
        <location line="+82"/>
        <source>Any status</source>
        <translation>すべて</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Ena&amp;bled only</source>
        <translation>有効のみ(&amp;B)</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Could not create the channel type</source>
        <translation>チャネルタイプを作成できませんでした</translation>
    </message>
    <message>
        <location line="+97"/>
        <source>Could not delete the channel type</source>
        <translation>チャネルタイプを削除できませんでした</translation>
    </message>
    <message>
        <location line="-51"/>
        <source>Could not disable the channel type</source>
        <translation>チャネルタイプを無効にできませんでした</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Could not enable the channel type</source>
        <translation>チャネルタイプを有効にできませんでした</translation>
    </message>
    <message>
        <location line="-45"/>
        <source>Could not save the channel type</source>
        <translation>チャネルタイプを保存できませんでした</translation>
    </message>
    <message>
        <location line="-117"/>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <location line="+195"/>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Delete channel type</source>
        <translation>チャネルタイプの削除</translation>
    </message>
    <message>
        <location line="-130"/>
        <source>Delete the channel type</source>
        <translation>チャネルタイプを削除</translation>
    </message>
    <message>
        <location line="+132"/>
        <source>Delete the channel type “%1” (%2)? This cannot be undone.</source>
        <translation>チャネルタイプ「%1」(%2) を削除しますか？この操作は元に戻せません。</translation>
    </message>
    <message>
        <location line="-198"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Disable</source>
        <translation>無効にする</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Disable the channel type</source>
        <translation>チャネルタイプを無効にする</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>Display order</source>
        <translation>表示順</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>Edit the channel type</source>
        <translation>チャネルタイプを編集</translation>
    </message>
    <message>
        <location line="-38"/>
        <source>Enable</source>
        <translation>有効にする</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Enable the channel type</source>
        <translation>チャネルタイプを有効にする</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Enabled only</source>
        <translation>有効のみ</translation>
    </message>
    <message>
        <location line="-41"/>
        <source>Extra settings</source>
        <translation>追加設定</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Filter by code</source>
        <translation>コードで絞り込み</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Filter by status</source>
        <translation>ステータスで絞り込み</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Icon URL</source>
        <translation>アイコン URL</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>New channel type</source>
        <translation>新しいチャネルタイプ</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Updated</source>
        <translation>更新日時</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Value</source>
        <translation>値</translation>
    </message>
</context>
<context>
    <name>ChannelsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/channels_panel.py" line="+236"/>
        <source>&amp;Active only</source>
        <translation>有効のみ(&amp;A)</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>&amp;Category:</source>
        <translation>カテゴリ(&amp;C):</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>&amp;Delete…</source>
        <translation>削除(&amp;D)…</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>&amp;Edit…</source>
        <translation>編集(&amp;E)…</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>&amp;Institution:</source>
        <translation>機関(&amp;I):</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>&amp;New…</source>
        <translation>新規(&amp;N)…</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>&amp;Status:</source>
        <translation>ステータス(&amp;S):</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>Activate</source>
        <translation>有効化</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Activate the channel</source>
        <translation>チャネルを有効化</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Active only</source>
        <translation>有効のみ</translation>
    </message>
    <message>
        <location line="-99"/>
        <location line="+91"/>
        <source>Any category</source>
        <translation>すべて</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Any institution id</source>
        <translation>すべて</translation>
    </message>
    <message>
        <location line="-74"/>
        <location line="+88"/>
        <source>Any status</source>
        <translation>すべて</translation>
    </message>
    <message>
        <location line="-65"/>
        <source>Category</source>
        <translation>カテゴリ</translation>
    </message>
    <message>
        <location line="+273"/>
        <source>Could not activate the channel</source>
        <translation>チャネルを有効化できませんでした</translation>
    </message>
    <message>
        <location line="-85"/>
        <source>Could not check the %1 settings</source>
        <translation>%1 の設定を確認できませんでした</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Could not create the channel</source>
        <translation>チャネルを作成できませんでした</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Could not deactivate the channel</source>
        <translation>チャネルを無効化できませんでした</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Could not delete the channel</source>
        <translation>チャネルを削除できませんでした</translation>
    </message>
    <message>
        <location line="-192"/>
        <source>Could not load the categories</source>
        <extracomment>Categories a new channel may use: the enabled channel types.</extracomment>
        <translation>カテゴリを読み込めませんでした</translation>
    </message>
    <message>
        <location line="+116"/>
        <source>Could not save the channel</source>
        <translation>チャネルを保存できませんでした</translation>
    </message>
    <message>
        <location line="-225"/>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Deactivate</source>
        <translation>無効化</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Deactivate the channel</source>
        <translation>チャネルを無効化</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>Default</source>
        <translation>既定</translation>
    </message>
    <message>
        <location line="+299"/>
        <source>Delete</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Delete channel</source>
        <translation>チャネルの削除</translation>
    </message>
    <message>
        <location line="-211"/>
        <source>Delete the channel</source>
        <translation>チャネルを削除</translation>
    </message>
    <message>
        <location line="+213"/>
        <source>Delete the channel “%1” (%2)? This cannot be undone.</source>
        <translation>チャネル「%1」(%2) を削除しますか？この操作は元に戻せません。</translation>
    </message>
    <message>
        <location line="-283"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>Edit the channel</source>
        <translation>チャネルを編集</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Filter by category</source>
        <translation>カテゴリで絞り込み</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Filter by institution</source>
        <translation>機関で絞り込み</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Filter by status</source>
        <translation>ステータスで絞り込み</translation>
    </message>
    <message>
        <location line="-46"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Institution</source>
        <translation>機関</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>New channel</source>
        <translation>新しいチャネル</translation>
    </message>
    <message>
        <location line="-66"/>
        <source>No</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Updated</source>
        <translation>更新日時</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Yes</source>
        <translation>はい</translation>
    </message>
</context>
<context>
    <name>Confirm</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/confirm.py" line="+32"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>%1サーバー「%2」を変更します。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Confirm change on production</source>
        <translation>本番環境での変更の確認</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply change</source>
        <translation>変更を適用</translation>
    </message>
</context>
<context>
    <name>ConnectionState</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="-15"/>
        <source>Not connected</source>
        <translation>未接続</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connecting…</source>
        <translation>接続中…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connected</source>
        <translation>接続済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server unreachable</source>
        <translation>サーバーに接続できません</translation>
    </message>
</context>
<context>
    <name>ConstantColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/constants_panel.py" line="+92"/>
        <source>Alpha-2</source>
        <translation>Alpha-2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Alpha-3</source>
        <translation>Alpha-3</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Code</source>
        <extracomment>The extra columns each list has (section 2.2); the others are hidden.</extracomment>
        <translation>コード</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>ISO code</source>
        <translation>ISO コード</translation>
    </message>
    <message>
        <location line="-57"/>
        <source>Label</source>
        <translation>ラベル</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Numeric code</source>
        <translation>数値コード</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Phone code</source>
        <translation>国際電話番号</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>UTC offset</source>
        <translation>UTC オフセット</translation>
    </message>
    <message>
        <location line="-58"/>
        <source>Value</source>
        <translation>値</translation>
    </message>
    <message>
        <location line="+51"/>
        <source>Zone id</source>
        <translation>ゾーン ID</translation>
    </message>
</context>
<context>
    <name>ConstantLists</name>
    <message>
        <location line="-90"/>
        <source>Countries</source>
        <extracomment>Readable names of the lists (source texts in context &quot;ConstantLists&quot;).</extracomment>
        <translation>国</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Currency config statuses</source>
        <translation>通貨設定のステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notification channel statuses</source>
        <translation>通知チャネルのステータス</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notification channel type statuses</source>
        <translation>通知チャネルタイプのステータス</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Notification channel types</source>
        <translation>通知チャネルタイプ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Order statuses</source>
        <translation>注文のステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zones</source>
        <translation>タイムゾーン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transfer statuses</source>
        <translation>振替のステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>US states</source>
        <translation>米国の州</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account statuses</source>
        <translation>アカウントのステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution statuses</source>
        <translation>機関のステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution types</source>
        <translation>機関の種別</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitation statuses</source>
        <translation>招待のステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Join sources</source>
        <translation>参加経路</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal types</source>
        <translation>ポータル種別</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace statuses</source>
        <translation>ワークスペースのステータス</translation>
    </message>
</context>
<context>
    <name>ConstantsPanel</name>
    <message>
        <location line="+221"/>
        <source>/constants/%1</source>
        <translation>/constants/%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Constant lists</source>
        <translation>定数リスト</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Constants</source>
        <translation>定数</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Filter by code, label or description</source>
        <translation>コード、ラベル、説明で絞り込み</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Shown list</source>
        <translation>表示中のリスト</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text filter</source>
        <translation>テキストで絞り込み</translation>
    </message>
</context>
<context>
    <name>DemoMailbox</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/mailbox.py" line="+57"/>
        <source>The demo mailbox exists only in the built-in sandbox.</source>
        <extracomment>list[MailItem], newest first.</extracomment>
        <translation>デモ用メールボックスは内蔵サンドボックスでのみ使用できます。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No email has been sent to %1 yet.</source>
        <translation>%1 宛てのメールはまだありません。</translation>
    </message>
    <message>
        <location line="+189"/>
        <source>Demo mailbox — sandbox</source>
        <translation>デモ用メールボックス — サンドボックス</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Demo mailbox</source>
        <translation>デモ用メールボックス</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The built-in sandbox sends no real email. Every message it would send is kept here: codes, reset tokens and setup ids.</source>
        <translation>内蔵サンドボックスは実際のメールを送信しません。送信されるはずのメール（コード、リセットトークン、セットアップ ID）はすべてここに保存されます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Address:</source>
        <translation>アドレス(&amp;A):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sent</source>
        <translation>送信日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Subject</source>
        <translation>件名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Code:</source>
        <translation>コード:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset token:</source>
        <translation>リセットトークン:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Setup id:</source>
        <translation>セットアップ ID:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verification code</source>
        <translation>確認コード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the verification code</source>
        <translation>確認コードをコピー</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reset token</source>
        <translation>リセットトークン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the reset token</source>
        <translation>リセットトークンをコピー</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Setup session id</source>
        <translation>セットアップ セッション ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the setup session id</source>
        <translation>セットアップ セッション ID をコピー</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Email address of the mailbox</source>
        <translation>メールボックスのアドレス</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Refresh the mailbox</source>
        <translation>メールボックスを更新</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Emails, newest first</source>
        <translation>メール（新しい順）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Email text</source>
        <translation>メール本文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Email subject</source>
        <translation>メールの件名</translation>
    </message>
</context>
<context>
    <name>DetailPane</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/detail.py" line="+82"/>
        <source>Host</source>
        <translation>ホスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Port</source>
        <translation>ポート</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Security</source>
        <translation>セキュリティ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Username</source>
        <translation>ユーザー名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Password</source>
        <translation>パスワード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From address</source>
        <translation>送信元アドレス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>From name</source>
        <translation>送信者名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Provider</source>
        <translation>プロバイダー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API key</source>
        <translation>API キー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sender id</source>
        <translation>送信者 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing secret</source>
        <translation>署名シークレット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IMAP</source>
        <translation>IMAP</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>(not set)</source>
        <translation>（未設定）</translation>
    </message>
    <message>
        <location line="-43"/>
        <source>Details</source>
        <translation>詳細</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Select a row to see its details.</source>
        <translation>行を選択すると詳細が表示されます。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>•••••• (set)</source>
        <translation>••••••（設定済み）</translation>
    </message>
</context>
<context>
    <name>DoctorAdvice</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/words.py" line="+145"/>
        <source>Send this report to the program&apos;s support.</source>
        <translation>このレポートをプログラムのサポートに送ってください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check the spelling of the host name and your network connection. Inside a company network, check that the VPN is on: internal names resolve only there.</source>
        <translation>ホスト名のつづりとネットワーク接続を確認してください。社内ネットワークでは VPN がオンか確認してください。内部の名前はそこでしか解決できません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check your network connection and, inside a company network, that the VPN is on.</source>
        <translation>ネットワーク接続と、社内ネットワークでは VPN がオンになっているか確認してください。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Check the port in the URL and that the server (or proxy) is running; a firewall may also refuse the connection.</source>
        <translation>URL のポートと、サーバー（またはプロキシ）が動いているか確認してください。ファイアウォールが接続を拒否している可能性もあります。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>A firewall is probably dropping the connection, or the server is down. Check that this network may reach the server (VPN, firewall rules).</source>
        <translation>ファイアウォールが接続を破棄しているか、サーバーが停止している可能性があります。このネットワークからサーバーに到達できるか確認してください（VPN、ファイアウォールのルール）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check your network connection and the routes to the server (VPN).</source>
        <translation>ネットワーク接続とサーバーへの経路（VPN）を確認してください。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The steps below still go through it.</source>
        <translation>以下の手順は引き続きプロキシを経由します。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Check the proxy&apos;s address and port.</source>
        <translation>プロキシのアドレスとポートを確認してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Put the proxy&apos;s user name and password in HTTPS_PROXY (http://user:password@proxy:port) and choose the system proxy setting, or ask your IT department; the report never shows them.</source>
        <translation>プロキシのユーザー名とパスワードを HTTPS_PROXY（http://user:password@proxy:port）に設定してシステムのプロキシ設定を選ぶか、IT 部門に問い合わせてください。レポートにそれらが表示されることはありません。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Check the proxy&apos;s user name and password with your IT department.</source>
        <translation>プロキシのユーザー名とパスワードを IT 部門に確認してください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The proxy may not allow this server or port: ask your IT department, or choose no proxy if the server can be reached directly.</source>
        <translation>プロキシがこのサーバーやポートを許可していない可能性があります。IT 部門に問い合わせるか、サーバーに直接到達できる場合はプロキシなしを選んでください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Check the proxy URL and its user name and password, or choose no proxy if the server can be reached directly.</source>
        <translation>プロキシ URL とそのユーザー名・パスワードを確認するか、サーバーに直接到達できる場合はプロキシなしを選んでください。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>If the server&apos;s certificate was renewed, ask your IT department for the new fingerprint; otherwise something between you and the server shows its own certificate: do not sign in.</source>
        <translation>サーバーの証明書が更新された場合は、IT 部門に新しいフィンガープリントを問い合わせてください。そうでなければ、あなたとサーバーの間の何かが自分の証明書を示しています。サインインしないでください。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Tell the server&apos;s administrators: after that date no connection will work.</source>
        <translation>サーバーの管理者に伝えてください。その日以降はどの接続も動かなくなります。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Ask the server&apos;s administrators to enable TLS 1.2 or 1.3.</source>
        <translation>サーバーの管理者に TLS 1.2 または 1.3 を有効にするよう依頼してください。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Tell the server&apos;s administrators; also check this computer&apos;s date and time.</source>
        <translation>サーバーの管理者に伝えてください。このコンピューターの日付と時刻も確認してください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Use a host name the certificate names in the URL, or ask the server&apos;s administrators for a certificate that names this one.</source>
        <translation>URL には証明書に記載されたホスト名を使うか、このホスト名を含む証明書をサーバーの管理者に依頼してください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>If the server uses a private or company CA, or a proxy inspects TLS, get that CA&apos;s certificate (PEM) and choose it as the profile&apos;s CA bundle. Never turn verification off.</source>
        <translation>サーバーがプライベートや社内の CA を使っている場合、またはプロキシが TLS を検査している場合は、その CA の証明書（PEM）を入手し、接続プロファイルの CA バンドルとして選んでください。検証は決してオフにしないでください。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Choose the server&apos;s CA certificate as the profile&apos;s CA bundle, or ask its administrators.</source>
        <translation>サーバーの CA 証明書を接続プロファイルの CA バンドルとして選ぶか、サーバーの管理者に問い合わせてください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The URL says https:// but the port serves plain HTTP (or something else): check the scheme and port of the URL.</source>
        <translation>URL は https:// ですが、ポートは暗号化なしの HTTP（またはほかのもの）を提供しています。URL のスキームとポートを確認してください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server and this computer found no common TLS version or cipher, or something between them closed the connection. Check the URL&apos;s port and any proxy or firewall.</source>
        <translation>サーバーとこのコンピューターに共通の TLS バージョンや暗号がないか、途中の何かが接続を閉じました。URL のポートと、プロキシやファイアウォールを確認してください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Something between you and the server holds the connection: check the URL&apos;s port and any firewall or proxy.</source>
        <translation>あなたとサーバーの間の何かが接続を止めています。URL のポートと、ファイアウォールやプロキシを確認してください。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Use https:// if the server offers it.</source>
        <translation>サーバーが対応していれば https:// を使ってください。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Most things may still work; tell the server&apos;s administrators which version they run.</source>
        <translation>ほとんどの機能は動くかもしれません。サーバーの管理者に、動かしているバージョンを伝えてください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A server that is not a System Portal, a proxy that changes answers, or a server fault. Retry; if it keeps happening, send this report to the server&apos;s administrators.</source>
        <translation>System Portal ではないサーバー、応答を書き換えるプロキシ、またはサーバーの障害です。再試行し、続くようならこのレポートをサーバーの管理者に送ってください。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The network or the server is slow: the program will work, but slowly. A VPN, a proxy or a distant server may explain it.</source>
        <translation>ネットワークかサーバーが遅いです。プログラムは動きますが、遅くなります。VPN、プロキシ、または遠くのサーバーが原因かもしれません。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>This is a captive portal (sign in to the network in a web browser first), a web site, or a wrong URL: the URL must be the base address of a System Portal API.</source>
        <translation>キャプティブポータル（先に Web ブラウザーでネットワークにサインインしてください）、Web サイト、または間違った URL です。URL は System Portal API のベースアドレスである必要があります。</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+12"/>
        <source>A captive portal (hotel or guest Wi-Fi: open a web page and sign in to the network first), a sign-in page in front of the server, or a wrong URL (check http or https and the path).</source>
        <translation>キャプティブポータル（ホテルやゲスト用 Wi-Fi：先に Web ページを開いてネットワークにサインインしてください）、サーバーの前にあるサインインページ、または間違った URL（http か https か、パスを確認してください）です。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server behind the gateway is down or cannot be reached from it; retry later, or tell the server&apos;s administrators.</source>
        <translation>ゲートウェイの後ろのサーバーが停止しているか、ゲートウェイから到達できません。後で再試行するか、サーバーの管理者に伝えてください。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The URL must be the base address of the System Portal API; check it with the server&apos;s administrators.</source>
        <translation>URL は System Portal API のベースアドレスである必要があります。サーバーの管理者に確認してください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server (or a gateway in front of it) has a problem: retry later, and tell its administrators if it lasts.</source>
        <translation>サーバー（またはその前のゲートウェイ）に問題があります。後で再試行し、続くようなら管理者に伝えてください。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Something between you and the server (a proxy, a load balancer, a firewall) or the server itself drops connections. Retry; if it keeps happening, tell the server&apos;s administrators.</source>
        <translation>あなたとサーバーの間の何か（プロキシ、ロードバランサー、ファイアウォール）またはサーバー自体が接続を切っています。再試行し、続くようならサーバーの管理者に伝えてください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server or the network is very slow, or a firewall holds the connection.</source>
        <translation>サーバーかネットワークがとても遅いか、ファイアウォールが接続を止めています。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Check the URL, the network and any proxy.</source>
        <translation>URL、ネットワーク、プロキシを確認してください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Check the profile&apos;s portal access code.</source>
        <translation>接続プロファイルのポータル アクセスコードを確認してください。</translation>
    </message>
    <message>
        <location line="+13"/>
        <location line="+9"/>
        <source>Authenticator codes change every 30 seconds and sign-ins expire by the server&apos;s clock: codes may be refused. Set the wrong clock from a time server (NTP).</source>
        <translation>認証アプリのコードは 30 秒ごとに変わり、サインインはサーバーの時計で期限切れになります。コードが拒否されることがあります。ずれている時計をタイムサーバー（NTP）で合わせてください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Tell the server&apos;s administrators: the envelope&apos;s timestamp is unusable.</source>
        <translation>サーバーの管理者に伝えてください。エンベロープのタイムスタンプが使えません。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>The program refuses it unless the profile allows legacy padding. Ask the server&apos;s administrators to switch to RSA-OAEP-256.</source>
        <translation>接続プロファイルで旧式パディングを許可しない限り、プログラムは拒否します。サーバーの管理者に RSA-OAEP-256 へ切り替えるよう依頼してください。</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+4"/>
        <location line="+48"/>
        <location line="+4"/>
        <location line="+4"/>
        <source>Send this report to the server&apos;s administrators.</source>
        <translation>このレポートをサーバーの管理者に送ってください。</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>The program fetches the key again by itself; if this happens often, tell the server&apos;s administrators that the key changes too often.</source>
        <translation>プログラムは自動で鍵を取得し直します。頻繁に起きる場合は、鍵が変わりすぎるとサーバーの管理者に伝えてください。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The key rotates constantly, or servers behind a load balancer have different keys; tell the server&apos;s administrators.</source>
        <translation>鍵が絶えず更新されているか、ロードバランサーの後ろのサーバーが別々の鍵を持っています。サーバーの管理者に伝えてください。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Sessions expire far too soon, or servers behind a load balancer do not share them. The program retries with a new session, at the cost of slower calls; tell the server&apos;s administrators.</source>
        <translation>セッションの期限切れが早すぎるか、ロードバランサーの後ろのサーバーがセッションを共有していません。プログラムは新しいセッションで再試行しますが、呼び出しが遅くなります。サーバーの管理者に伝えてください。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Enter the profile&apos;s portal access code; the portal&apos;s administrators give it.</source>
        <translation>接続プロファイルのポータル アクセスコードを入力してください。ポータルの管理者が教えてくれます。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Check the profile&apos;s portal access code with the portal&apos;s administrators.</source>
        <translation>接続プロファイルのポータル アクセスコードをポータルの管理者に確認してください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>See the earlier steps.</source>
        <translation>前の手順を確認してください。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The program works, but lists show English labels (or raw keys) in those languages: the server&apos;s translations are missing.</source>
        <translation>プログラムは動きますが、それらの言語では一覧に英語のラベル（または生のキー）が表示されます。サーバーの翻訳がありません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>See the earlier steps: the server&apos;s answers are not usable.</source>
        <translation>前の手順を確認してください。サーバーの応答が使えません。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The problems above may be these faults: start the sandbox without fault injection for a clean test.</source>
        <translation>上の問題はこれらの障害によるものかもしれません。障害注入なしでサンドボックスを起動して、もう一度テストしてください。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Whoever can read this file can sign evidence as this installation: keep it, and copies of it in backups, to yourself.</source>
        <translation>このファイルを読み取れる人は誰でも、このインストールとして証跡に署名できます。このファイルとバックアップ内のコピーは自分だけで管理してください。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Evidence packs, review decisions, sign-offs and journal checkpoints cannot be signed until it can: if the key file has a passphrase, set PORTAL_ADMIN_KEY_PASSPHRASE.</source>
        <translation>読み込めるようになるまで、証跡パック、レビューの判断、承認、ジャーナルのチェックポイントには署名できません。鍵ファイルにパスフレーズがある場合は、PORTAL_ADMIN_KEY_PASSPHRASE を設定してください。</translation>
    </message>
</context>
<context>
    <name>DoctorCodes</name>
    <message>
        <location line="-631"/>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 min</source>
        <translation>%1 分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 h</source>
        <translation>%1 時間</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>The server runs inside this program: there is no network to check.</source>
        <extracomment>Summary and advice by diagnosis code (and a variant, see :func:`_key`).</extracomment>
        <translation>サーバーはこのプログラムの中で動いています。確認するネットワークはありません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skipped: an earlier step failed.</source>
        <translation>スキップ：前の手順が失敗しました。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped: the server cannot be reached (see above).</source>
        <translation>スキップ：サーバーに到達できません（上記を参照）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Skipped: the server does not answer as a System Portal (see above).</source>
        <translation>スキップ：サーバーが System Portal として応答しません（上記を参照）。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Skipped: no usable public key.</source>
        <translation>スキップ：使用できる公開鍵がありません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped: the public list could not be read.</source>
        <translation>スキップ：公開リストを読み取れませんでした。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The check stopped on an unexpected error.</source>
        <translation>予期しないエラーで確認が止まりました。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 resolves to %2.</source>
        <translation>%1 は %2 に解決されます。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The name %1 could not be resolved.</source>
        <translation>名前 %1 を解決できませんでした。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The name %1 could not be resolved in time.</source>
        <translation>名前 %1 を時間内に解決できませんでした。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Connected to %1.</source>
        <translation>%1 に接続しました。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The connection to %1 was refused: nothing listens on that port.</source>
        <translation>%1 への接続が拒否されました。そのポートで待ち受けているものがありません。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>No answer from %1 in time.</source>
        <translation>%1 から時間内に応答がありません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server could not be reached at %1.</source>
        <translation>%1 でサーバーに到達できませんでした。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No proxy is used for this server.</source>
        <translation>このサーバーにはプロキシを使用しません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The proxy %1 lets the connection through.</source>
        <translation>プロキシ %1 は接続を通します。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The proxy is reached over TLS, which this test does not check by itself.</source>
        <translation>プロキシへは TLS で接続します。このテストはそれ自体を確認しません。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 does not answer as an HTTP proxy.</source>
        <translation>%1 は HTTP プロキシとして応答しません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy requires a user name and password (HTTP 407).</source>
        <translation>プロキシはユーザー名とパスワードを要求しています（HTTP 407）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The proxy refused the user name and password it was given (HTTP 407).</source>
        <translation>プロキシは渡されたユーザー名とパスワードを拒否しました（HTTP 407）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The proxy could not open a connection to the server (%1).</source>
        <translation>プロキシはサーバーへの接続を開けませんでした（%1）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The proxy refused the request.</source>
        <translation>プロキシが要求を拒否しました。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>%1 with a valid, trusted certificate for %2.</source>
        <translation>%1、%2 の有効で信頼された証明書です。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 with a valid, trusted certificate for %2; it matches the pin.</source>
        <translation>%1、%2 の有効で信頼された証明書です。ピンと一致します。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server&apos;s certificate is not the one the profile pins (SHA-256 %1).</source>
        <translation>サーバーの証明書は、接続プロファイルがピン留めしている証明書ではありません（SHA-256 %1）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server&apos;s certificate ends in %1 days (%2).</source>
        <translation>サーバーの証明書は %1 日後に期限切れになります（%2）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server offers only %1, which is outdated.</source>
        <translation>サーバーは古い %1 しか提供していません。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The server&apos;s certificate has expired (%1).</source>
        <translation>サーバーの証明書は期限切れです（%1）。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server&apos;s certificate is for %1, not for this host.</source>
        <translation>サーバーの証明書は %1 用で、このホスト用ではありません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s certificate (issued by %1) is not trusted.</source>
        <translation>サーバーの証明書（発行者 %1）は信頼されていません。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The server&apos;s certificate could not be verified (%1).</source>
        <translation>サーバーの証明書を検証できませんでした（%1）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s port does not speak TLS.</source>
        <translation>サーバーのポートは TLS を話しません。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The TLS handshake failed.</source>
        <translation>TLS ハンドシェイクに失敗しました。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The TLS handshake got no answer in time.</source>
        <translation>TLS ハンドシェイクに時間内の応答がありませんでした。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The URL is plain http://: everything travels unencrypted.</source>
        <translation>URL は暗号化なしの http:// です。すべて暗号化されずに送られます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Plain http to this computer: no TLS to check.</source>
        <translation>このコンピューターへの暗号化なしの http です。確認する TLS はありません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A System Portal answer, envelope version %1, %2 items.</source>
        <translation>System Portal の応答です。エンベロープのバージョン %1、項目 %2 件。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The envelope&apos;s version is %1, not the one this program speaks.</source>
        <translation>エンベロープのバージョンは %1 で、このプログラムが使うバージョンではありません。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The answer is not a valid System Portal envelope.</source>
        <translation>応答は有効な System Portal のエンベロープではありません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server answered a small public list in %1 s, which is slow.</source>
        <translation>サーバーが小さな公開リストに応答するまで %1 秒かかりました。遅いです。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server answered with a web page (HTTP %1), not the System Portal API.</source>
        <translation>サーバーは System Portal API ではなく Web ページで応答しました（HTTP %1）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server redirects (HTTP %1) instead of answering the API.</source>
        <translation>サーバーは API に応答せず、リダイレクトしています（HTTP %1）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server redirects (HTTP %1) to %2 instead of answering the API.</source>
        <translation>サーバーは API に応答せず、%2 へリダイレクトしています（HTTP %1）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>A gateway or proxy answered with an HTML error page (HTTP %1) instead of the server.</source>
        <translation>サーバーではなく、ゲートウェイまたはプロキシが HTML のエラーページで応答しました（HTTP %1）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server answered HTTP %1 without the API&apos;s envelope: it is not a System Portal, or the URL&apos;s path is wrong.</source>
        <translation>サーバーは API のエンベロープなしで HTTP %1 を返しました。System Portal ではないか、URL のパスが間違っています。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>The server answered with an error (HTTP %1, code %2).</source>
        <translation>サーバーがエラーを返しました（HTTP %1、コード %2）。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The connection was closed before a complete answer arrived.</source>
        <translation>完全な応答が届く前に接続が閉じられました。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server did not answer in time.</source>
        <translation>サーバーが時間内に応答しませんでした。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The connection could not be opened.</source>
        <translation>接続を開けませんでした。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server refused the request: the portal access code is missing or wrong, or a gateway blocks this computer.</source>
        <translation>サーバーが要求を拒否しました。ポータル アクセスコードがないか間違っているか、ゲートウェイがこのコンピューターをブロックしています。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server answered the error %1 (HTTP %2).</source>
        <translation>サーバーがエラー %1 を返しました（HTTP %2）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server&apos;s clock and this computer&apos;s agree within %1.</source>
        <translation>サーバーとこのコンピューターの時計の差は %1 以内です。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server&apos;s clock is %1 ahead of this computer&apos;s.</source>
        <translation>サーバーの時計はこのコンピューターより %1 進んでいます。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s clock is %1 behind this computer&apos;s.</source>
        <translation>サーバーの時計はこのコンピューターより %1 遅れています。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server&apos;s timestamp cannot be read as a time.</source>
        <translation>サーバーのタイムスタンプを時刻として読み取れません。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The server&apos;s answer carries no timestamp to compare with.</source>
        <translation>サーバーの応答には比較するタイムスタンプがありません。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>An RSA key of %1 bits, wrapped with %2.</source>
        <translation>%1 ビットの RSA 鍵、%2 でラップ。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The server wraps keys with the legacy PKCS#1 v1.5 padding (%1).</source>
        <translation>サーバーは旧式の PKCS#1 v1.5 パディングで鍵をラップしています（%1）。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The server&apos;s key uses an algorithm this program does not know.</source>
        <translation>サーバーの鍵は、このプログラムが知らないアルゴリズムを使っています。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server&apos;s public key is unusable.</source>
        <translation>サーバーの公開鍵は使用できません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A session was opened and closed; both answers were sealed and opened correctly.</source>
        <translation>セッションを開いて閉じました。どちらの応答も正しく暗号化され、復号できました。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The server changed its key between reading and using it; with the new key a session opened and closed.</source>
        <translation>鍵を読み取ってから使うまでの間にサーバーが鍵を変えました。新しい鍵でセッションを開いて閉じました。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server refused its own key twice: the key changes constantly.</source>
        <translation>サーバーが自分の鍵を 2 回拒否しました。鍵が絶えず変わっています。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The session opened, but the server had already forgotten it when it was closed.</source>
        <translation>セッションは開きましたが、閉じるときにはサーバーがすでにそれを忘れていました。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The server could not open the key exchange: the algorithm it announces is not the one it uses.</source>
        <translation>サーバーは鍵交換を開けませんでした。公開しているアルゴリズムと実際に使うものが違います。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server&apos;s encrypted answer could not be opened.</source>
        <translation>サーバーの暗号化された応答を復号できませんでした。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The session answer has no session id.</source>
        <translation>セッションの応答にセッション ID がありません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server requires %1; this program sends them.</source>
        <translation>サーバーは %1 を要求します。このプログラムはそれらを送信します。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>No header is required before signing in.</source>
        <translation>サインイン前に必要なヘッダーはありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server requires a portal access code and none was given.</source>
        <translation>サーバーはポータル アクセスコードを要求していますが、指定されていません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The server refuses the portal access code given.</source>
        <translation>サーバーは指定されたポータル アクセスコードを拒否しています。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Whether the server requires %1 could not be told from its answers.</source>
        <translation>サーバーの応答からは %1 が必要かどうか判断できませんでした。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Labels answer in %1.</source>
        <translation>ラベルは %1 で返されます。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Labels are not translated for %1.</source>
        <translation>ラベルが %1 に翻訳されていません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The labels could not be read in %1.</source>
        <translation>%1 のラベルを読み取れませんでした。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The server is not a sandbox with fault injection.</source>
        <translation>サーバーは障害注入のあるサンドボックスではありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server is a sandbox; fault injection is off.</source>
        <translation>サーバーはサンドボックスです。障害注入はオフです。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server is a sandbox injecting faults on purpose: %1.</source>
        <translation>サーバーは意図的に障害を注入しているサンドボックスです：%1。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Kept in the system keyring; fingerprint %1.</source>
        <translation>システムのキーリングに保存されています。フィンガープリント %1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Kept in the key file %1 (no usable keyring), readable by its owner only; fingerprint %2.</source>
        <translation>鍵ファイル %1 に保存されています（使用できるキーリングがありません）。読み取れるのは所有者だけです。フィンガープリント %2。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>No key yet: it is made on first use, in the system keyring.</source>
        <translation>鍵はまだありません。初めて使うときにシステムのキーリングに作成されます。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No key yet: it is made on first use, in the key file %1.</source>
        <translation>鍵はまだありません。初めて使うときに鍵ファイル %1 に作成されます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The evidence-signing key cannot be read: %1.</source>
        <translation>証跡署名鍵を読み込めません: %1。</translation>
    </message>
</context>
<context>
    <name>DoctorDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/dialog.py" line="+108"/>
        <source>%1 s</source>
        <extracomment>The icon of each outcome (``ui/theme/icons.py``).</extracomment>
        <translation>%1 秒</translation>
    </message>
    <message>
        <location line="+159"/>
        <source>Testing the connection…</source>
        <extracomment>The report being written (``save_report``, started by the file dialog).</extracomment>
        <translation>接続をテストしています…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The test was stopped.</source>
        <translation>テストを中止しました。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This profile cannot be tested: %1</source>
        <translation>この接続プロファイルはテストできません：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The connection does not work: see the failed step above.</source>
        <translation>接続できません。上の失敗した手順を確認してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The server can be used, but look at the warnings above.</source>
        <translation>サーバーは使えますが、上の警告を確認してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Everything works: this program can connect to the server.</source>
        <translation>すべて正常です。このプログラムはサーバーに接続できます。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The report was copied.</source>
        <translation>レポートをコピーしました。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Save report</source>
        <translation>レポートを保存</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Text report (*.txt)</source>
        <translation>テキストのレポート (*.txt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>JSON report (*.json)</source>
        <translation>JSON のレポート (*.json)</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>The report could not be saved: %1</source>
        <translation>レポートを保存できませんでした：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The report was saved to %1.</source>
        <translation>レポートを %1 に保存しました。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Test connection — %1</source>
        <translation>接続テスト — %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the built-in sandbox</source>
        <translation>内蔵サンドボックス</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Server: %1</source>
        <translation>サーバー: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Checks the network, TLS and the API step by step, without signing in. The report holds no password, code or token.</source>
        <translation>サインインせずに、ネットワーク、TLS、API を順に確認します。レポートにパスワード、コード、トークンは含まれません。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Steps</source>
        <translation>手順</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy report</source>
        <translation>レポートをコピー(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Save report…</source>
        <translation>レポートを保存(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Run again</source>
        <translation>再実行(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;top</source>
        <translation>中止(&amp;T)</translation>
    </message>
</context>
<context>
    <name>DoctorFaults</name>
    <message>
        <location filename="../src/portal_admin/ui/doctor/words.py" line="-673"/>
        <source>added latency of %1 ms</source>
        <extracomment>A sandbox&apos;s fault settings (``details[&quot;faults&quot;]``): words and how the value is written.</extracomment>
        <translation>%1 ms の遅延を追加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>latency jitter of up to %1 ms</source>
        <translation>最大 %1 ms の遅延のゆらぎ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are server errors</source>
        <translation>応答の %1 がサーバーエラー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of connections are dropped</source>
        <translation>接続の %1 が切断される</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are malformed</source>
        <translation>応答の %1 が不正な形式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of answers are an HTML page</source>
        <translation>応答の %1 が HTML ページ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Secure Channel sessions expire before %1 of requests</source>
        <translation>リクエストの %1 の前にセキュアチャネルのセッションが期限切れになる</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the key is rotated before %1 of requests</source>
        <translation>リクエストの %1 の前に鍵が更新される</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the clock is shifted by %1 s</source>
        <translation>時計が %1 秒ずれている</translation>
    </message>
</context>
<context>
    <name>DoctorSteps</name>
    <message>
        <location line="-37"/>
        <source>DNS</source>
        <translation>DNS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TCP connection</source>
        <translation>TCP 接続</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP proxy</source>
        <translation>HTTP プロキシ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>API envelope</source>
        <translation>API エンベロープ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server clock</source>
        <translation>サーバーの時計</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel public key</source>
        <translation>セキュアチャネルの公開鍵</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Secure Channel session</source>
        <translation>セキュアチャネルのセッション</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pre-login headers</source>
        <translation>サインイン前のヘッダー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Label languages</source>
        <translation>ラベルの言語</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sandbox fault injection</source>
        <translation>サンドボックスの障害注入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence signing key</source>
        <translation>証跡署名鍵</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>OK</source>
        <translation>OK</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Warning</source>
        <translation>警告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>スキップ</translation>
    </message>
</context>
<context>
    <name>EnumLabels</name>
    <message>
        <location filename="../src/portal_admin/ui/enum_labels.py" line="+19"/>
        <location line="+59"/>
        <location line="+60"/>
        <source>Active</source>
        <extracomment>Own labels by enumeration, found by its type name or its constants path. The enumerations with labels of the program&apos;s own, for ``shown``&apos;s ``kind``. An enumeration: its listing, type name (``UserAccountStatus``) or constants path.</extracomment>
        <translation>有効</translation>
    </message>
    <message>
        <location line="-118"/>
        <location line="+82"/>
        <source>Suspended</source>
        <translation>一時停止</translation>
    </message>
    <message>
        <location line="-81"/>
        <source>Pending setup</source>
        <translation>初期設定待ち</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rejected</source>
        <translation>却下</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+80"/>
        <source>Deactivated</source>
        <translation>無効化済み</translation>
    </message>
    <message>
        <location line="-79"/>
        <source>Registered</source>
        <translation>登録済み</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System portal</source>
        <translation>システムポータル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tenant portal</source>
        <translation>テナントポータル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Partner portal</source>
        <translation>パートナーポータル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Consumer portal</source>
        <translation>コンシューマーポータル</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Pending</source>
        <translation>保留中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accepted</source>
        <translation>承諾済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Declined</source>
        <translation>辞退</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expired</source>
        <translation>期限切れ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancelled</source>
        <translation>取り消し済み</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Inactive</source>
        <translation>無効</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+54"/>
        <source>Enabled</source>
        <translation>有効</translation>
    </message>
    <message>
        <location line="-53"/>
        <source>Disabled</source>
        <translation>無効</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Owner</source>
        <translation>オーナー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Custom</source>
        <translation>カスタム</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>E-mail code</source>
        <translation>メールのコード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Authenticator app</source>
        <translation>認証アプリ</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+26"/>
        <source>E-mail</source>
        <extracomment>Field names a person reads: the snapshot&apos;s columns, and the request bodies&apos; names the journal keeps (``accountRemark``), by name.</extracomment>
        <translation>メールアドレス</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>SMS</source>
        <translation>SMS</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Webhook</source>
        <translation>Webhook</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>In the app</source>
        <translation>アプリ内</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Activated</source>
        <extracomment>What an account status action leads to, said as its result (&quot;Suspended&quot;).</extracomment>
        <translation>有効化</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>ポータル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>機関</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>タイムゾーン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>国</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>備考</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>電話番号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type</source>
        <translation>種別</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Permissions</source>
        <translation>権限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Members</source>
        <translation>メンバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expires</source>
        <translation>有効期限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Category</source>
        <translation>カテゴリ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Default</source>
        <translation>既定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primary</source>
        <translation>プライマリ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verified</source>
        <translation>確認済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist enforced</source>
        <translation>IP ホワイトリストの適用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backup codes</source>
        <translation>バックアップコード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session settings</source>
        <translation>セッションの設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reason</source>
        <translation>理由</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Valid for (days)</source>
        <translation>有効日数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace</source>
        <translation>ワークスペース</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal type</source>
        <translation>ポータル種別</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Domain</source>
        <translation>ドメイン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP addresses</source>
        <translation>IP アドレス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type code</source>
        <translation>種別コード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type name</source>
        <translation>種別名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type description</source>
        <translation>種別の説明</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type value</source>
        <translation>種別の値</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type status</source>
        <translation>種別の状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Display order</source>
        <translation>表示順</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Icon address</source>
        <translation>アイコンのアドレス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel name</source>
        <translation>チャネル名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel category</source>
        <translation>チャネルのカテゴリ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel status</source>
        <translation>チャネルの状態</translation>
    </message>
    <message>
        <location line="+71"/>
        <source>Yes</source>
        <extracomment>Prefixes a request body puts before a field&apos;s own name (``accountRemark``: the remark). Which enumeration a field&apos;s values belong to, by field (the kind of row decides &quot;status&quot;). Which enumeration a ``status`` or ``type`` belongs to, by the kind of row (the diff&apos;s kinds). Fields whose values are yes or no.</extracomment>
        <translation>はい</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No</source>
        <translation>いいえ</translation>
    </message>
</context>
<context>
    <name>EnvironmentBanner</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/banner.py" line="+48"/>
        <source>built-in</source>
        <translation>内蔵</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>READ-ONLY</source>
        <translation>閲覧専用</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Environment</source>
        <translation>環境</translation>
    </message>
</context>
<context>
    <name>EnvironmentType</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/store.py" line="+47"/>
        <source>PRODUCTION</source>
        <translation>本番</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>STAGING</source>
        <translation>ステージング</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TEST</source>
        <translation>テスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>SANDBOX</source>
        <translation>サンドボックス</translation>
    </message>
</context>
<context>
    <name>ErrorDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/error_dialog.py" line="+98"/>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error code:</source>
        <translation>エラーコード:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id:</source>
        <translation>リクエスト ID:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy details</source>
        <translation>詳細をコピー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy error details</source>
        <translation>エラーの詳細をコピー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error code</source>
        <translation>エラーコード</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Request id</source>
        <translation>リクエスト ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Technical details</source>
        <translation>技術的な詳細</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error summary</source>
        <translation>エラーの概要</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Error message</source>
        <translation>エラーメッセージ</translation>
    </message>
</context>
<context>
    <name>ErrorInfo</name>
    <message>
        <location filename="../src/portal_admin/ui/error_info.py" line="+22"/>
        <source>You are not signed in, or your sign-in has expired.</source>
        <translation>サインインしていないか、サインインの有効期限が切れています。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your account does not have permission to do this.</source>
        <translation>このアカウントには、この操作を行う権限がありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The item no longer exists.</source>
        <translation>この項目はすでに存在しません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The change conflicts with the current state on the server.</source>
        <translation>この変更はサーバー上の現在の状態と競合しています。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Too many requests. Please wait a moment and try again.</source>
        <translation>リクエストが多すぎます。しばらく待ってから、もう一度お試しください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server did not accept the input.</source>
        <translation>サーバーが入力内容を受け付けませんでした。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The encrypted Secure Channel to the server failed.</source>
        <translation>サーバーとの暗号化されたセキュアチャネルで問題が発生しました。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server could not complete the request.</source>
        <translation>サーバーでリクエストを完了できませんでした。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The server could not be reached.</source>
        <translation>サーバーに接続できませんでした。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The server did not answer in time.</source>
        <translation>サーバーが時間内に応答しませんでした。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A file or folder on this computer could not be used.</source>
        <translation>このコンピューター上のファイルまたはフォルダーを使用できませんでした。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server address cannot be used: it must be http:// or https:// and a host name.</source>
        <extracomment>Profile settings the client or the doctor cannot use, by the client&apos;s error code.</extracomment>
        <translation>サーバーのアドレスを使用できません。http:// または https:// とホスト名で指定してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The CA bundle file cannot be found or read. Check its path in the profile.</source>
        <translation>CA バンドル ファイルが見つからないか、読み取れません。プロファイルのパスを確認してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A certificate pin cannot be used: it must be a SHA-256 fingerprint, with an https:// address. Check the profile&apos;s pins.</source>
        <translation>証明書の固定値を使用できません。SHA-256 フィンガープリントで、https:// のアドレスと共に指定する必要があります。プロファイルの固定値を確認してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy address cannot be used: it must be http://host:port. Check the profile&apos;s proxy.</source>
        <translation>プロキシのアドレスを使用できません。http://ホスト:ポート の形式で指定してください。プロファイルのプロキシ設定を確認してください。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>This id cannot be used: an id has only letters, digits, &apos;-&apos;, &apos;_&apos; and &apos;.&apos;. Nothing was sent.</source>
        <extracomment>Failures with a cause of their own (connections, a refused id), by the client&apos;s error code.</extracomment>
        <translation>この ID は使用できません。ID に使えるのは英字、数字、「-」、「_」、「.」だけです。何も送信されていません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy asks for a user name and password, which this program does not have. Use the system proxy setting with them in HTTPS_PROXY, or ask your IT department.</source>
        <translation>プロキシがユーザー名とパスワードを求めていますが、このプログラムはそれを持っていません。HTTPS_PROXY に資格情報を含めたシステムのプロキシ設定を使うか、IT 部門に問い合わせてください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The proxy refused to connect to the server. Check the profile&apos;s proxy.</source>
        <translation>プロキシがサーバーへの接続を拒否しました。プロファイルのプロキシ設定を確認してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The server&apos;s certificate is not the one this profile pins: nothing was sent. Ask your IT department whether the certificate was renewed.</source>
        <translation>サーバーの証明書がこのプロファイルで固定された証明書と一致しません。何も送信していません。証明書が更新されたかどうか IT 部門に確認してください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>A gateway or proxy answered instead of the server (HTTP %1): the server behind it is down or cannot be reached from it. Try again later, or tell the server&apos;s administrators.</source>
        <extracomment>A gateway or proxy answered instead of the server (the client&apos;s ``GatewayError``); %1 is the HTTP status.</extracomment>
        <translation>サーバーではなく、ゲートウェイまたはプロキシが応答しました（HTTP %1）。ゲートウェイの後ろのサーバーが停止しているか、ゲートウェイから到達できません。後で再試行するか、サーバーの管理者に伝えてください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Something unexpected went wrong in the program.</source>
        <translation>プログラムで予期しない問題が発生しました。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Error code</source>
        <extracomment>True for failures the program did not foresee (a bug): shown with their details.</extracomment>
        <translatorcomment>Used at run time but not found by lupdate (error_info.py:71)</translatorcomment>
        <translation>エラーコード</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Request id</source>
        <translatorcomment>Used at run time but not found by lupdate (error_info.py:76)</translatorcomment>
        <translation>リクエスト ID</translation>
    </message>
</context>
<context>
    <name>ErrorLine</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/error_line.py" line="+129"/>
        <source>Copy</source>
        <extracomment>The failure shown (None: nothing, or a message without a failure behind it).</extracomment>
        <translation>コピー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the error, its code and request id</source>
        <translation>エラー、エラーコード、リクエスト ID をコピー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server message</source>
        <translation>サーバーのメッセージ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Error code and request id</source>
        <translation>エラーコードとリクエスト ID</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Error code</source>
        <translation>エラーコード</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Request id</source>
        <translation>リクエスト ID</translation>
    </message>
</context>
<context>
    <name>EvidencePack</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/packing.py" line="+179"/>
        <source>Evidence pack written to %1, signed by the key %2.</source>
        <translation>証跡パックを %1 に書き出しました。鍵 %2 で署名されています。</translation>
    </message>
</context>
<context>
    <name>EvidenceReport</name>
    <message>
        <location line="-147"/>
        <source>Snapshot</source>
        <extracomment>Builds (kind, tables, summary) for a pack, in the worker thread. The names a pack&apos;s report shows (its kind, summary keys, tables and columns) that the program&apos;s field labels (``enum_labels.field_label``) do not already name.</extracomment>
        <translation>スナップショット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Comparison of two snapshots</source>
        <translation>2 つのスナップショットの比較</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal</source>
        <translation>ジャーナル</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Records</source>
        <translation>レコード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Since</source>
        <translation>開始</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Until</source>
        <translation>終了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filter</source>
        <translation>フィルター</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal head</source>
        <translation>ジャーナルの先頭ハッシュ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal intact</source>
        <translation>ジャーナルが無傷</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed checkpoints</source>
        <translation>署名済みチェックポイント</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Snapshot of</source>
        <translation>スナップショットの対象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Connection profile</source>
        <translation>接続プロファイル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Taken by</source>
        <translation>取得者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Started</source>
        <translation>開始日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Finished</source>
        <translation>完了日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Program version</source>
        <translation>プログラムのバージョン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Older snapshot</source>
        <translation>古いスナップショット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Newer snapshot</source>
        <translation>新しいスナップショット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signing key</source>
        <translation>署名キー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Accounts</source>
        <translation>アカウント</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>ロール</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>招待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist</source>
        <translation>IP 許可リスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Multi-factor authentication</source>
        <translation>多要素認証</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel types</source>
        <translation>チャネルタイプ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Notification channels</source>
        <translation>通知チャネル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Constants</source>
        <translation>定数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Changes</source>
        <translation>変更</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Number</source>
        <translation>番号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Segment</source>
        <translation>セグメント</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server time</source>
        <translation>サーバー時刻</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Targets</source>
        <translation>対象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fields</source>
        <translation>フィールド</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>変更前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>変更後</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id</source>
        <translation>リクエスト ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTTP status</source>
        <translation>HTTP ステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Intent number</source>
        <translation>インテント番号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Hash</source>
        <translation>ハッシュ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Previous hash</source>
        <translation>直前のハッシュ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Key</source>
        <translation>キー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Public key</source>
        <translation>公開鍵</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signature</source>
        <translation>署名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Format</source>
        <translation>形式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Updated</source>
        <translation>更新日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inviter</source>
        <translation>招待者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace</source>
        <translation>ワークスペース</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Entry</source>
        <translation>エントリ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>List</source>
        <translation>リスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>値</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Label</source>
        <translation>ラベル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>変更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field</source>
        <translation>フィールド</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field (label)</source>
        <translation>フィールド (ラベル)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before (label)</source>
        <translation>変更前 (ラベル)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After (label)</source>
        <translation>変更後 (ラベル)</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Evidence pack: %1</source>
        <extracomment>The names the program&apos;s field labels already name (translated in ``enum_labels``). Columns of the snapshot tables whose codes the program labels, by the kind of row. The summary keys and columns whose values are not labelled (free text, hashes, times).</extracomment>
        <translation>証跡パック: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 rows</source>
        <translation>%1 行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>the first %1 shown, all in %2</source>
        <translation>先頭の %1 行を表示、全体は %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no</source>
        <translation>いいえ</translation>
    </message>
</context>
<context>
    <name>ExportDialog</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/export_dialog.py" line="+92"/>
        <location line="+11"/>
        <source>Export to CSV</source>
        <translation>CSV にエクスポート</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV ファイル (*.csv)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&amp;File:</source>
        <translation>ファイル(&amp;F):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Delimiter:</source>
        <translation>区切り文字(&amp;D):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Comma (,)</source>
        <translation>コンマ (,)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Semicolon (;)</source>
        <translation>セミコロン (;)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tab</source>
        <translation>タブ</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Export file</source>
        <translation>エクスポート先ファイル</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose the export file</source>
        <translation>エクスポート先のファイルを選択</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delimiter</source>
        <translation>区切り文字</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Exporting</source>
        <translation>エクスポート中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export progress</source>
        <translation>エクスポートの進行状況</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Exported %1 of %2 rows…</source>
        <translation>%2 行中 %1 行をエクスポートしました…</translation>
    </message>
    <message>
        <location line="+18"/>
        <location line="+24"/>
        <source>Open folder</source>
        <translation>フォルダーを開く</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Export finished</source>
        <translation>エクスポート完了</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%n row(s) exported to %1.</source>
        <translation>%n 行を %1 にエクスポートしました。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open the folder of the exported file</source>
        <translation>エクスポートしたファイルのフォルダーを開く</translation>
    </message>
</context>
<context>
    <name>FileWork</name>
    <message>
        <location filename="../src/portal_admin/ui/file_work.py" line="+32"/>
        <source>The file cannot be read: it is damaged, or it is not a file this program writes.</source>
        <translation>ファイルを読み込めません。ファイルが壊れているか、このプログラムが書き込むファイルではありません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The file is in use by another window or by the command line. Try again later.</source>
        <translation>ファイルは別のウィンドウまたはコマンドラインで使用中です。しばらくしてからもう一度お試しください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Nothing can be signed: this installation&apos;s signing key cannot be read.</source>
        <translation>何も署名できません。このインストールの署名鍵を読み込めません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The key is kept in the system keyring or, without one, in a key file only you can read. If that file has a passphrase, start the program with PORTAL_ADMIN_KEY_PASSPHRASE set. Help &gt; About says where the key is.</source>
        <translation>鍵はシステムのキーリングに、キーリングがない場合はあなただけが読み取れる鍵ファイルに保存されています。そのファイルにパスフレーズがある場合は、PORTAL_ADMIN_KEY_PASSPHRASE を設定してからプログラムを起動してください。鍵の場所は「ヘルプ &gt; バージョン情報」で確認できます。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The file work did not end within %1 seconds.</source>
        <translation>ファイルの処理が %1 秒以内に終わりませんでした。</translation>
    </message>
</context>
<context>
    <name>InvitationColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/models.py" line="+115"/>
        <source>Can be accepted</source>
        <translation>承諾可否</translation>
    </message>
    <message>
        <location line="-50"/>
        <location line="+63"/>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <location line="-71"/>
        <location line="+50"/>
        <source>Expires</source>
        <translation>有効期限</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>Invitee email</source>
        <translation>招待相手のメールアドレス</translation>
    </message>
    <message>
        <location line="+7"/>
        <location line="+57"/>
        <source>Inviter</source>
        <translation>招待者</translation>
    </message>
    <message>
        <location line="-43"/>
        <location line="+72"/>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <location line="-79"/>
        <location line="+57"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="-14"/>
        <source>Workspace</source>
        <translation>ワークスペース</translation>
    </message>
</context>
<context>
    <name>InvitationDialogs</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/dialogs.py" line="+221"/>
        <source> days</source>
        <translation> 日</translation>
    </message>
    <message>
        <location line="-16"/>
        <source>%1 / %2 characters</source>
        <translation>%1 / %2 文字</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>&amp;Email:</source>
        <translation>メールアドレス(&amp;E):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Message:</source>
        <translation>メッセージ(&amp;M):</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>&amp;Reason (optional):</source>
        <translation>理由（任意）(&amp;R):</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>Between %1 and %2 days</source>
        <translation>%1～%2 日</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <location line="+64"/>
        <location line="+33"/>
        <location line="+3"/>
        <source>Cancel invitation</source>
        <translation>招待を取り消す</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Cancel the invitation to %1? They will no longer be able to accept it. This cannot be undone.</source>
        <translation>%1 への招待を取り消しますか？相手はこの招待を承諾できなくなります。この操作は元に戻せません。</translation>
    </message>
    <message>
        <location line="-97"/>
        <source>E&amp;xpires after:</source>
        <translation>有効期間(&amp;X):</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>Email problem</source>
        <translation>メールアドレスの問題</translation>
    </message>
    <message>
        <location line="-206"/>
        <source>Enter the email address of the person to invite.</source>
        <extracomment>The bounds the wire description states (``protocol.bodies``): 1 to 30 days, default 7.</extracomment>
        <translation>招待する相手のメールアドレスを入力してください。</translation>
    </message>
    <message>
        <location line="+196"/>
        <source>Expiration in days</source>
        <translation>有効期間（日数）</translation>
    </message>
    <message>
        <location line="+99"/>
        <source>For example: sent to the wrong address</source>
        <translation>例：誤ったアドレスに送信した</translation>
    </message>
    <message>
        <location line="-107"/>
        <source>Invitation message</source>
        <translation>招待メッセージ</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Invite</source>
        <translation>招待</translation>
    </message>
    <message>
        <location line="-28"/>
        <source>Invite someone</source>
        <translation>ユーザーを招待</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Invitee email</source>
        <translation>招待相手のメールアドレス</translation>
    </message>
    <message>
        <location line="+120"/>
        <location line="+2"/>
        <source>Keep invitation</source>
        <translation>招待を残す</translation>
    </message>
    <message>
        <location line="-116"/>
        <source>Optional message shown in the invitation email</source>
        <translation>招待メールに表示されるメッセージ（任意）</translation>
    </message>
    <message>
        <location line="+118"/>
        <source>Question</source>
        <translation>確認</translation>
    </message>
    <message>
        <location line="-17"/>
        <source>Reason for cancelling</source>
        <translation>取り消しの理由</translation>
    </message>
    <message>
        <location line="-92"/>
        <source>Send invitation</source>
        <translation>招待を送信</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Server error</source>
        <translation>サーバーエラー</translation>
    </message>
    <message>
        <location line="-204"/>
        <source>The email address is longer than %1 characters.</source>
        <translation>メールアドレスは %1 文字以内で入力してください。</translation>
    </message>
    <message>
        <location line="+117"/>
        <source>The message is longer than %1 characters.</source>
        <extracomment>The person pressed Invite with valid input: the panel sends it.</extracomment>
        <translation>メッセージは %1 文字以内で入力してください。</translation>
    </message>
    <message>
        <location line="+159"/>
        <source>This changes the %1 server “%2”.</source>
        <translation>%1サーバー「%2」を変更します。</translation>
    </message>
    <message>
        <location line="-270"/>
        <source>This is not a valid email address (expected name@example.com).</source>
        <translation>有効なメールアドレスではありません（例：name@example.com）。</translation>
    </message>
</context>
<context>
    <name>Invitations</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/models.py" line="+54"/>
        <source>Yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="+54"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/panel.py" line="+328"/>
        <source>All statuses</source>
        <translation>すべて</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Cancel invitation…</source>
        <translation>招待を取り消す…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancel the selected invitation</source>
        <translation>選択した招待を取り消す</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="+42"/>
        <source>Cannot be accepted: %1</source>
        <translation>承諾不可：%1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/panel.py" line="-38"/>
        <source>Could not cancel the invitation to %1</source>
        <translation>%1 への招待を取り消せませんでした</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Could not invite</source>
        <translation>招待できませんでした</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>There are no invitations yet.</source>
        <translation>招待はまだありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No invitations match these filters.</source>
        <translation>このフィルターに一致する招待はありません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Status:</source>
        <translation>ステータス(&amp;S):</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Filter by email, inviter or message</source>
        <translation>メールアドレス、招待者、メッセージで絞り込み</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Invitations</source>
        <translation>招待</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Invite someone</source>
        <translation>ユーザーを招待</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Invite…</source>
        <translation>招待…</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Inviting is not possible: %1</source>
        <translation>招待できません：%1</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Only pending invitations can be cancelled; this one is %1.</source>
        <translation>取り消せるのは保留中の招待のみです。この招待は「%1」です。</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>Select a pending invitation to cancel it.</source>
        <translation>取り消す保留中の招待を選択してください。</translation>
    </message>
    <message>
        <location line="+129"/>
        <source>Status filter</source>
        <translation>ステータスの絞り込み</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Text filter</source>
        <translation>テキストで絞り込み</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Why actions are disabled</source>
        <translation>操作できない理由</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/formatting.py" line="-3"/>
        <source>already accepted</source>
        <translation>承諾済み</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>cancelled</source>
        <translation>取り消し済み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>declined</source>
        <translation>辞退</translation>
    </message>
    <message>
        <location line="-58"/>
        <location line="+56"/>
        <location line="+4"/>
        <source>expired</source>
        <translation>期限切れ</translation>
    </message>
    <message>
        <location line="-57"/>
        <source>in %n day(s)</source>
        <translation>%n 日後</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in %n hour(s)</source>
        <translation>%n 時間後</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>in %n minute(s)</source>
        <translation>%n 分後</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>not open</source>
        <translation>受付終了</translation>
    </message>
</context>
<context>
    <name>IpWhitelistPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_entry_delegate.py" line="+44"/>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist_model.py" line="+34"/>
        <source>Address or network</source>
        <translation>アドレスまたはネットワーク</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist_model.py" line="+1"/>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Added</source>
        <translation>追加日時</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>IPv4 address</source>
        <translation>IPv4 アドレス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv6 address</source>
        <translation>IPv6 アドレス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv4 network (CIDR)</source>
        <translation>IPv4 ネットワーク (CIDR)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IPv6 network (CIDR)</source>
        <translation>IPv6 ネットワーク (CIDR)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enter an address or a network.</source>
        <translation>アドレスまたはネットワークを入力してください。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Too long for an address.</source>
        <translation>アドレスとしては長すぎます。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Host bits are set: use the network address.</source>
        <translation>ホスト部が 0 以外です（ネットワーク アドレスを指定）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The prefix length is not valid.</source>
        <translation>プレフィックス長が正しくありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not an IPv4 or IPv6 address or CIDR network.</source>
        <translation>IPv4/IPv6 アドレスまたは CIDR ネットワークではありません。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/ip_whitelist.py" line="+211"/>
        <source>%1 entries are not valid: correct or remove them to save.</source>
        <translation>%1 件のエントリが無効です。保存するには修正するか削除してください。</translation>
    </message>
    <message>
        <location line="+269"/>
        <source>&amp;Add</source>
        <translation>追加(&amp;A)</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>&amp;Disable</source>
        <translation>無効にする(&amp;D)</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>&amp;Enable</source>
        <translation>有効にする(&amp;E)</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>&amp;Remove</source>
        <translation>削除(&amp;R)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Save</source>
        <translation>保存(&amp;S)</translation>
    </message>
    <message>
        <location line="-179"/>
        <source>(unknown)</source>
        <translation>（不明）</translation>
    </message>
    <message>
        <location line="-98"/>
        <source>1 entry is not valid: correct or remove it to save.</source>
        <translation>1 件のエントリが無効です。保存するには修正するか削除してください。</translation>
    </message>
    <message>
        <location line="+264"/>
        <source>Add the entry</source>
        <translation>エントリを追加</translation>
    </message>
    <message>
        <location line="-168"/>
        <location line="+37"/>
        <source>Change the IP whitelist.</source>
        <translation>IP 許可リストを変更します。</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Continue anyway</source>
        <translation>このまま続行</translation>
    </message>
    <message>
        <location line="+81"/>
        <source>Could not disable the IP whitelist</source>
        <translation>IP 許可リストを無効にできませんでした</translation>
    </message>
    <message>
        <location line="-25"/>
        <source>Could not enable the IP whitelist</source>
        <translation>IP 許可リストを有効にできませんでした</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>Could not save the IP whitelist</source>
        <translation>IP 許可リストを保存できませんでした</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Disable the IP whitelist.</source>
        <translation>IP 許可リストを無効にします。</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>Disable the whitelist</source>
        <translation>許可リストを無効にする</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Rever&amp;t</source>
        <translation>元に戻す(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Discard the changes</source>
        <translation>変更を破棄</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Enable the whitelist</source>
        <translation>許可リストを有効にする</translation>
    </message>
    <message>
        <location line="+39"/>
        <source>Entry problems</source>
        <translation>エントリの問題</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>IPv4 or IPv6 address, or CIDR network</source>
        <translation>IPv4/IPv6 アドレスまたは CIDR ネットワーク</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>New entry</source>
        <translation>新しいエントリ</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>New entry check</source>
        <translation>新しいエントリの検証</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Remove the selected entry</source>
        <translation>選択したエントリを削除</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Save the whitelist</source>
        <translation>許可リストを保存</translation>
    </message>
    <message>
        <location line="-250"/>
        <source>The address you connect from is not known.</source>
        <translation>接続元のアドレスが不明です。</translation>
    </message>
    <message>
        <location line="+74"/>
        <source>The whitelist does not contain %1, the address you connect from. Once it is enforced, the server may refuse this program: you may lock yourself out. Continue anyway?</source>
        <translation>許可リストに接続元のアドレス %1 が含まれていません。適用されると、サーバーがこのプログラムからの接続を拒否し、自分自身を締め出してしまう可能性があります。このまま続行しますか？</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>The whitelist is disabled: every address may sign in.</source>
        <translation>許可リストは無効です。すべてのアドレスからサインインできます。</translation>
    </message>
    <message>
        <location line="-5"/>
        <source>The whitelist is enabled: only the addresses below may sign in.</source>
        <translation>許可リストは有効です。下記のアドレスからのみサインインできます。</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Unsaved changes.</source>
        <translation>未保存の変更があります。</translation>
    </message>
    <message>
        <location line="+250"/>
        <source>Whitelist entries</source>
        <translation>許可リストのエントリ</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Whitelist state</source>
        <translation>許可リストの状態</translation>
    </message>
    <message>
        <location line="-246"/>
        <source>You connect from %1, which the whitelist contains.</source>
        <translation>接続元 %1 は許可リストに含まれています。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>You connect from %1, which the whitelist does not contain.</source>
        <translation>接続元 %1 は許可リストに含まれていません。</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>You may lock yourself out</source>
        <translation>自分自身を締め出す可能性があります</translation>
    </message>
    <message>
        <location line="+184"/>
        <source>Your address</source>
        <translation>接続元アドレス</translation>
    </message>
</context>
<context>
    <name>JobsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/panel.py" line="+37"/>
        <source>Job</source>
        <translation>ジョブ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>State</source>
        <translation>状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Done</source>
        <translation>完了</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Skipped</source>
        <translation>スキップ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Left</source>
        <translation>残り</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>アカウント</translation>
    </message>
    <message>
        <location line="+126"/>
        <source>Select one job.</source>
        <extracomment>One job as the panel lists it. A job file that cannot be opened (damaged, removed, another user&apos;s) is said here.</extracomment>
        <translation>ジョブを 1 つ選択してください。</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>Bulk changes made from this computer. A paused or interrupted job can be resumed: targets whose outcome was not known are read back first, so nothing is changed twice.</source>
        <translation>このコンピューターから行った一括変更です。一時停止または中断したジョブは再開できます。結果が不明な対象は先に読み直すため、同じ変更が二度行われることはありません。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Resume</source>
        <translation>再開(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Show…</source>
        <translation>表示(&amp;S)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rever&amp;t the job…</source>
        <translation>ジョブを元に戻す(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Bulk jobs</source>
        <translation>一括ジョブ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Job files: %1</source>
        <translation>ジョブファイル：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Jobs</source>
        <translation>ジョブ</translation>
    </message>
</context>
<context>
    <name>JournalPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/journal_panel.py" line="+49"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time</source>
        <translation>日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>アカウント</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Operation</source>
        <translation>操作</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Targets</source>
        <translation>対象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>変更内容</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Outcome</source>
        <translation>結果</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code</source>
        <translation>コード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Request id</source>
        <translation>リクエスト ID</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/operation_titles.py" line="+23"/>
        <source>Succeeded</source>
        <extracomment>A journal record&apos;s outcome, by its code (the Journal panel&apos;s words, its packs&apos; too).</extracomment>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refused</source>
        <translation>拒否</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unknown</source>
        <translation>不明</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/journal_panel.py" line="+29"/>
        <source>Sent, outcome not recorded</source>
        <extracomment>Rows shown at most (the newest); exports write every matching record. Account names asked of the server at most per reading of the journal. An intent whose outcome record is missing: the program stopped before the answer.</extracomment>
        <translation>送信済み、結果は未記録</translation>
    </message>
    <message>
        <location line="+276"/>
        <source>The journal is empty: no change was sent from this computer.</source>
        <extracomment>Account ids -&gt; names, read from the signed-in server (&quot;&quot; when it has none).</extracomment>
        <translation>ジャーナルは空です: このコンピューターから送信された変更はありません。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The chain verifies: %1 records, head %2.</source>
        <translation>チェーンの検証に成功しました: %1 件のレコード、ヘッド %2。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 new segment(s) after a cut-off record (a crash).</source>
        <translation>切断されたレコード（クラッシュ）の後に新しいセグメントが %1 個あります。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>But %1 record(s) are not authenticated (the first: record %2): no checkpoint of this installation vouches for them and this program did not write them. A revert leaves them alone unless their job file confirms them.</source>
        <translation>ただし %1 件のレコードは認証されていません（最初はレコード %2）。このインストールのチェックポイントはどれもこれらを保証しておらず、このプログラムが書いたものでもありません。ジョブファイルで確認できない限り、元に戻す処理ではそのままにします。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The journal does not match its signed checkpoints: %1.</source>
        <translation>ジャーナルが署名付きチェックポイントと一致しません: %1。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The chain is BROKEN at line %1 (record %2): %3.</source>
        <translation>チェーンが %1 行目（レコード %2）で壊れています: %3。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>%1 records written to %2.</source>
        <translation>%1 件のレコードを %2 に書き出しました。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Filter by account, operation or id</source>
        <translation>アカウント、操作、ID で絞り込み</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Journal filter</source>
        <translation>ジャーナルの絞り込み</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All outcomes</source>
        <translation>すべての結果</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Outcome filter</source>
        <translation>結果の絞り込み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the journal again (F5)</source>
        <translation>ジャーナルを再読み込み (F5)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export CSV…</source>
        <translation>CSV エクスポート…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export JSON…</source>
        <translation>JSON エクスポート…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>証跡パック…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Revert…</source>
        <translation>元に戻す(&amp;R)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set the selected changes back to their values before</source>
        <translation>選択した変更を変更前の値に戻します</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A signed zip of the records shown: CSV and a report</source>
        <translation>表示中のレコードの署名付き zip（CSV とレポート）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Journal of changes</source>
        <translation>変更ジャーナル</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Journal</source>
        <translation>ジャーナル</translation>
    </message>
</context>
<context>
    <name>KeyNotice</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/key_notice.py" line="+97"/>
        <source>Got it</source>
        <extracomment>Beside the key file: the key file&apos;s path once the person has been told of it.</extracomment>
        <translation>了解</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This computer has no usable keyring, so the key that signs your evidence packs, review decisions and journal checkpoints is kept in a file only you can read: %1. Whoever can read that file can sign as this installation: keep it, and its backups, to yourself. Help &gt; About shows it again.</source>
        <translation>このコンピューターには使用できるキーリングがないため、証跡パック、レビューの判断、ジャーナルのチェックポイントに署名する鍵は、あなただけが読み取れるファイルに保存されています: %1。このファイルを読み取れる人は誰でも、このインストールとして署名できます。ファイルとそのバックアップは自分だけで管理してください。「ヘルプ &gt; バージョン情報」でいつでも確認できます。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Where the signing key is kept</source>
        <translation>署名鍵の保存場所</translation>
    </message>
</context>
<context>
    <name>KioskMarking</name>
    <message>
        <location filename="../src/portal_admin/ui/kiosk/marking.py" line="+64"/>
        <source>Read-only · %1</source>
        <extracomment>Height of the watermark strip added below a screenshot, in pixels (device independent). Below this width the strip has two lines (time, then account) and is at least this wide.</extracomment>
        <translation>閲覧専用 · %1</translation>
    </message>
</context>
<context>
    <name>ListView</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/paged_list.py" line="+121"/>
        <source>Retry</source>
        <extracomment>How many rows fitting a column to its contents looks at (those on screen first). From this width (px) the detail pane sits beside the list; under it, below the list. The narrowest a fitted column gets to spare a horizontal scroll bar (px). Qt&apos;s &quot;no limit&quot; for a widget&apos;s size. The state&apos;s icon, above the text (``set_icon``). &quot;Clear filters&quot;, shown when filters hide every row. The panel&apos;s own first step on an empty list (``PagedList.set_empty_action``).</extracomment>
        <translation>再試行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Retry loading the list</source>
        <translation>一覧の読み込みを再試行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List state</source>
        <translation>一覧の状態</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Clear filters</source>
        <translation>条件をクリア</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Clear the filters of the list</source>
        <translation>一覧のフィルターをクリア</translation>
    </message>
    <message>
        <location line="+334"/>
        <source>Export failed</source>
        <extracomment>The row object of the current row, or None. Enter or a double click on a row: the row object (open its detail). Delete: the selected row objects (start the delete action, with its confirmation). F2: the current row object (edit it). True once the person chose column widths (or a view brought some): not fitted then. The context menu, copies and keys (``ui/lists/table_actions.py``). Fits the columns again once a resize (a maximised window) has settled.</extracomment>
        <translation>エクスポートに失敗しました</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>Columns</source>
        <translation>列</translation>
    </message>
    <message>
        <location line="+148"/>
        <location filename="../src/portal_admin/ui/lists/table_actions.py" line="+288"/>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/table_actions.py" line="-48"/>
        <source>Copy id</source>
        <translation>ID をコピー</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Row actions</source>
        <extracomment>The translation context of the menu&apos;s texts (they began in the list widget, then ``ListView``). Enter or a double click on a row: the row object (open it, or do its main thing). Delete: the chosen row objects (start the delete action, with its confirmation). F2: the current row object (edit it).</extracomment>
        <translation>行の操作</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Copy cell</source>
        <translation>セルをコピー</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Copy rows as text</source>
        <translation>行をテキストとしてコピー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy row as text</source>
        <translation>行をテキストとしてコピー</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Copy rows as CSV</source>
        <translation>行を CSV としてコピー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy row as CSV</source>
        <translation>行を CSV としてコピー</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Copy ids</source>
        <translation>ID をコピー</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/paged_list.py" line="-107"/>
        <source>Loading…</source>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Nothing to show.</source>
        <translation>表示する項目はありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing matches these filters.</source>
        <translation>このフィルターに一致するものはありません。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The list could not be loaded.</source>
        <translation>一覧を読み込めませんでした。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Error code: %1</source>
        <translation>エラーコード：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Request id: %1</source>
        <translation>リクエスト ID：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Showing %1 of %2</source>
        <translation>%2 件中 %1 件を表示</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Loading more…</source>
        <translation>さらに読み込み中…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%n selected</source>
        <translation>%n 件選択中</translation>
    </message>
    <message>
        <location line="+34"/>
        <location line="+4"/>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Reload the list (F5)</source>
        <translation>一覧を再読み込み (F5)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Export CSV…</source>
        <translation>CSV エクスポート…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export every row of this view to a CSV file</source>
        <translation>この一覧のすべての行を CSV ファイルにエクスポートします</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export CSV</source>
        <translation>CSV エクスポート</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+20"/>
        <source>List</source>
        <translation>一覧</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>List status</source>
        <translation>一覧のステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Filters</source>
        <translation>フィルター</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Saved views: filters, sort and columns kept on this computer</source>
        <translation>保存済みビュー: フィルター・並べ替え・列をこのコンピューターに保存</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Views</source>
        <translation>ビュー</translation>
    </message>
</context>
<context>
    <name>LoginHistoryPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/history.py" line="+50"/>
        <source>All results</source>
        <extracomment>Result filter choices: (key, server value, source text).</extracomment>
        <translation>すべて</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>ブロック</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Time</source>
        <translation>日時</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Result</source>
        <translation>結果</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Client IP</source>
        <translation>クライアント IP</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Device</source>
        <translation>デバイス</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Failure reason</source>
        <translation>失敗の理由</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>User agent</source>
        <translation>ユーザーエージェント</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+199"/>
        <source>Show as chart</source>
        <translation>グラフで表示</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show as table</source>
        <translation>表で表示</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Switches between the chart and a table of its numbers</source>
        <translation>グラフと、その数値の表を切り替えます</translation>
    </message>
    <message>
        <location line="+47"/>
        <source>No sign-ins recorded yet.</source>
        <translation>サインインの記録はまだありません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No sign-ins match these filters.</source>
        <translation>このフィルターに一致するサインインはありません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Result:</source>
        <translation>結果(&amp;R):</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Based on all %1 sign-ins of this filter.</source>
        <translation>この絞り込み条件に該当する全 %1 件のサインインに基づいています。</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>Chart note</source>
        <translation>グラフの注記</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>From</source>
        <translation>開始日</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>From date</source>
        <translation>開始日</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>Loading the chart…</source>
        <translation>グラフを読み込み中…</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Sign-ins per day, as a table</source>
        <translation>日別のサインイン数 (表)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Login history</source>
        <translation>サインイン履歴</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>Login result</source>
        <translation>サインインの結果</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+2"/>
        <source>Sign-ins per day</source>
        <translation>1 日あたりのサインイン数</translation>
    </message>
    <message>
        <location line="-35"/>
        <source>The chart shows the latest %1 of %2 sign-ins.</source>
        <translation>グラフには %2 件のサインインのうち最新 %1 件を表示しています。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>To</source>
        <translation>終了日</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>To date</source>
        <translation>終了日</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/lock.py" line="+58"/>
        <location line="+10"/>
        <source>Locked</source>
        <translation>ロック中</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>The window was locked. Sign in again to continue; your work is kept.</source>
        <translation>再度サインインすると、そのまま作業を再開できます。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Sign in again…</source>
        <translation>再度サインイン…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign in again to unlock</source>
        <translation>再度サインインしてロックを解除</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/window.py" line="+410"/>
        <source>The panel “%1” could not be opened.</source>
        <extracomment>A language code from the View &gt; Language menu. Emitted when the window closes (the application then quits). Kiosk mode: the idle time ran out; the session is to be signed out. The kiosk settings (None outside kiosk mode). Once per key file: where the evidence-signing key is kept (no keyring).</extracomment>
        <translation>パネル「%1」を開けませんでした。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+77"/>
        <source>No keyring: the sign-in is kept in memory only</source>
        <extracomment>Shown when no keyring can keep the sign-in: it lasts only while the program runs.</extracomment>
        <translation>キーリングなし：サインイン情報はメモリ内にのみ保持されます</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/window.py" line="+90"/>
        <source>Not signed in</source>
        <translation>サインインしていません</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Signed-in account</source>
        <translation>サインイン中のアカウント</translation>
    </message>
    <message>
        <location line="+89"/>
        <source>System Portal Admin — %1</source>
        <translation>System Portal Admin — %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>System Portal Admin</source>
        <translation>System Portal Admin</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Log &amp;out</source>
        <translation>サインアウト(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Log out</source>
        <translation>サインアウト</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Sign &amp;out</source>
        <translation>サインアウト(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign out</source>
        <translation>サインアウト</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>READ-ONLY SESSION — nothing can be changed here</source>
        <translation>閲覧専用セッション — ここでは何も変更できません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Read-only session</source>
        <translation>閲覧専用セッション</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Lock</source>
        <translation>ロック(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Quit</source>
        <translation>終了(&amp;Q)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Refresh</source>
        <translation>更新(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Command &amp;palette…</source>
        <translation>コマンドパレット(&amp;P)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;File</source>
        <translation>ファイル(&amp;F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change &amp;password…</source>
        <translation>パスワードの変更(&amp;P)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;About…</source>
        <translation>バージョン情報(&amp;A)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Help</source>
        <translation>ヘルプ(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Language</source>
        <translation>言語(&amp;L)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;View</source>
        <translation>表示(&amp;V)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Panels</source>
        <translation>パネル</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Panel</source>
        <translation>パネル</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Choose a panel on the left.</source>
        <translation>左側のパネルを選択してください。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/status_bar.py" line="+15"/>
        <source>Connection state</source>
        <translation>接続状態</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Secure Channel state</source>
        <translation>セキュアチャネルの状態</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Last request id:</source>
        <translation>最後のリクエスト ID:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Last request id</source>
        <translation>最後のリクエスト ID</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none yet</source>
        <translation>まだありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Working</source>
        <translation>処理中</translation>
    </message>
</context>
<context>
    <name>MessageBar</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/message_bar.py" line="+101"/>
        <source>Dismiss</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Dismiss the message</source>
        <translation>メッセージを閉じる</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Error code: %1</source>
        <translation>エラーコード：%1</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Message</source>
        <translation>メッセージ</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Message details</source>
        <translation>メッセージの詳細</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Message summary</source>
        <translation>メッセージの概要</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Request id: %1</source>
        <translation>リクエスト ID：%1</translation>
    </message>
</context>
<context>
    <name>MfaPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/mfa.py" line="+50"/>
        <source>Method</source>
        <translation>方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enabled</source>
        <translation>有効</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Primary</source>
        <translation>プライマリ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verified</source>
        <translation>確認済み</translation>
    </message>
    <message>
        <location line="+197"/>
        <source>%1 of %2 backup codes remaining</source>
        <translation>バックアップコード残り %1 / %2</translation>
    </message>
    <message>
        <location line="+57"/>
        <source>A new set of backup codes replaces the current one: your old codes stop working at once. The new codes are shown only once.</source>
        <translation>新しいバックアップコードで現在のコードを置き換えます。古いコードはただちに使えなくなります。新しいコードは一度だけ表示されます。</translation>
    </message>
    <message>
        <location line="+77"/>
        <location line="+1"/>
        <source>Backup codes</source>
        <translation>バックアップコード</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Backup codes remaining</source>
        <translation>残りのバックアップコード</translation>
    </message>
    <message>
        <location line="-70"/>
        <source>Could not generate backup codes</source>
        <translation>バックアップコードを生成できませんでした</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>Could not revoke the authenticator</source>
        <translation>認証アプリを失効させられませんでした</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+84"/>
        <source>Generate new backup codes</source>
        <translation>新しいバックアップコードを生成</translation>
    </message>
    <message>
        <location line="-78"/>
        <source>Generate new codes</source>
        <translation>新しいコードを生成</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>Generate new codes…</source>
        <translation>新しいコードを生成…</translation>
    </message>
    <message>
        <location line="-142"/>
        <source>No backup codes have been generated.</source>
        <translation>バックアップコードはまだ生成されていません。</translation>
    </message>
    <message>
        <location line="-134"/>
        <source>Not verified</source>
        <translation>未確認</translation>
    </message>
    <message>
        <location line="+166"/>
        <source>Revoke</source>
        <translation>失効</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>Revoke authenticator…</source>
        <translation>認証アプリを失効…</translation>
    </message>
    <message>
        <location line="-108"/>
        <location line="+111"/>
        <source>Revoke the authenticator</source>
        <translation>認証アプリを失効させる</translation>
    </message>
    <message>
        <location line="-110"/>
        <source>Sign-in codes from your authenticator app will stop working. You will sign in with email codes until you set up an authenticator again.</source>
        <translation>認証アプリのサインインコードは使えなくなります。認証アプリを再設定するまでは、メールで届くコードでサインインします。</translation>
    </message>
    <message>
        <location line="+101"/>
        <location line="+2"/>
        <location line="+2"/>
        <source>Sign-in methods</source>
        <translation>サインイン方式</translation>
    </message>
    <message>
        <location line="-150"/>
        <source>The authenticator is not set up.</source>
        <translation>認証アプリは設定されていません。</translation>
    </message>
</context>
<context>
    <name>NotificationChecks</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/validation.py" line="+50"/>
        <source>The code needs 2 to 32 letters, digits or underscores, starting with a letter.</source>
        <translation>コードは英字で始まる 2～32 文字の英数字またはアンダースコアで指定してください。</translation>
    </message>
    <message>
        <location line="-23"/>
        <source>%1 is longer than %2 characters.</source>
        <translation>%1 は %2 文字以内で入力してください。</translation>
    </message>
    <message>
        <location line="+82"/>
        <source>%1 is not a host name.</source>
        <translation>%1 はホスト名ではありません。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 is not an email address.</source>
        <translation>%1 はメールアドレスではありません。</translation>
    </message>
    <message>
        <location line="-36"/>
        <source>%1 is not valid JSON (line %2, column %3).</source>
        <translation>%1 は有効な JSON ではありません（%2 行 %3 列）。</translation>
    </message>
    <message>
        <location line="-58"/>
        <source>%1 is required.</source>
        <translation>%1 は必須です。</translation>
    </message>
    <message>
        <location line="+69"/>
        <source>%1 must be a JSON object {…}.</source>
        <translation>%1 は JSON オブジェクト {…} で指定してください。</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>%1 must be an http or https address.</source>
        <translation>%1 は http または https のアドレスで指定してください。</translation>
    </message>
</context>
<context>
    <name>NotificationPanels</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/record_panel.py" line="+151"/>
        <source>Changes are not available: %1</source>
        <extracomment>The operation id, given the current row (e.g. enable or disable by status). Runner topics that make this panel reload. The factory (``build``) starts loading, through the controller; ``reload()`` loads again what follows the language. Set by the subclass.</extracomment>
        <translation>変更できません：%1</translation>
    </message>
</context>
<context>
    <name>Notifications</name>
    <message>
        <location line="+117"/>
        <source>Could not load the lists of choices</source>
        <translation>選択肢の一覧を読み込めませんでした</translation>
    </message>
</context>
<context>
    <name>OfflineReview</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/offline.py" line="+51"/>
        <source>Review campaign (not signed in)</source>
        <translation>キャンペーンのレビュー（サインインなし）</translation>
    </message>
</context>
<context>
    <name>OperationTitles</name>
    <message>
        <location filename="../src/portal_admin/ui/operation_titles.py" line="+7"/>
        <source>Ask for a password reset</source>
        <extracomment>The title of every mutating operation, by id.</extracomment>
        <translation>パスワードのリセットを依頼</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset the password</source>
        <translation>パスワードのリセット</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change own password</source>
        <translation>自分のパスワードの変更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the first password</source>
        <translation>最初のパスワードの設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the IP whitelist</source>
        <translation>IP ホワイトリストの設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enforce the IP whitelist</source>
        <translation>IP ホワイトリストの適用</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop enforcing the IP whitelist</source>
        <translation>IP ホワイトリストの適用停止</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Generate backup codes</source>
        <translation>バックアップコードの生成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove the authenticator app</source>
        <translation>認証アプリの削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Mail a password reset link</source>
        <translation>パスワードリセットのリンクを送信</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change account status</source>
        <translation>アカウントのステータス変更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit an account</source>
        <translation>アカウントの編集</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite someone</source>
        <translation>ユーザーを招待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel an invitation</source>
        <translation>招待の取り消し</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a channel type</source>
        <translation>チャネル種別の作成</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a channel type</source>
        <translation>チャネル種別の削除</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Disable a channel type</source>
        <translation>チャネルタイプを無効にする</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Enable a channel type</source>
        <translation>チャネル種別の有効化</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit a channel type</source>
        <translation>チャネル種別の編集</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Activate a channel</source>
        <translation>チャネルの有効化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a channel</source>
        <translation>チャネルの作成</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Deactivate a channel</source>
        <translation>チャネルの無効化</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a channel</source>
        <translation>チャネルの削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Edit a channel</source>
        <translation>チャネルの編集</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check the incoming mail settings</source>
        <translation>受信メール設定の確認</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Check the outgoing mail settings</source>
        <translation>送信メール設定の確認</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Delete a role</source>
        <translation>ロールの削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create a portal</source>
        <translation>ポータルの作成</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>(none)</source>
        <extracomment>The kind of row an operation&apos;s ``status`` belongs to, by the id&apos;s prefix.</extracomment>
        <translation>(なし)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 (was %2)</source>
        <translation>%1 (変更前: %2)</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1: %2 → %3</source>
        <translation>%1: %2 → %3</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>bulk job %1</source>
        <translation>一括ジョブ %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>reverts %1</source>
        <translation>レコード %1 を元に戻す</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>reason: %1</source>
        <translation>理由: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reason: %1</source>
        <translation>理由: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>, </source>
        <translation>、</translation>
    </message>
</context>
<context>
    <name>OwnInvitations</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/own.py" line="+172"/>
        <source>&amp;Show:</source>
        <translation>表示(&amp;S):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Invitation statuses to show</source>
        <translation>表示する招待のステータス</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>My invitations</source>
        <translation>自分宛ての招待</translation>
    </message>
</context>
<context>
    <name>PackCheck</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/pack_check_dialog.py" line="+84"/>
        <source>this installation&apos;s key</source>
        <extracomment>Who signed, by ``PackVerification.trust``.</extracomment>
        <translation>このインストールの鍵</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>the key you pinned</source>
        <translation>指定した鍵</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a key you do not trust</source>
        <translation>信頼していない鍵</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>the trusted key “%1”</source>
        <translation>信頼済みの鍵「%1」</translation>
    </message>
    <message>
        <location line="-42"/>
        <source>changed: %1</source>
        <extracomment>The problem that means the pack&apos;s key did not sign it. What a pack check finds, as ``evidence.pack.verify_pack`` says it: a fixed sentence, or ``WHAT: NAME`` (``changed: accounts.csv``); a problem not listed here is shown as written.</extracomment>
        <translation>変更: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed: %1</source>
        <translation>削除: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>added: %1</source>
        <translation>追加: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in the zip twice: %1</source>
        <translation>zip 内に 2 回あります: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>damaged, cannot be read: %1</source>
        <translation>破損しているため読み取れません: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>encrypted (no pack is): %1</source>
        <translation>暗号化されています（パックは暗号化されません）: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>compressed in a way no pack is: %1</source>
        <translation>パックでは使われない方式で圧縮されています: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>expands far more than a pack&apos;s file can (not read): %1</source>
        <translation>パックのファイルではありえないほど大きく展開されます（読み取っていません）: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>named twice in the manifest: %1</source>
        <translation>マニフェストに 2 回記載されています: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the file does not exist</source>
        <translation>ファイルが存在しません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it is not a zip file</source>
        <translation>zip ファイルではありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it holds far more files than a pack does</source>
        <translation>パックよりはるかに多くのファイルを含んでいます</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its files together are larger than a pack may be</source>
        <translation>ファイルの合計サイズがパックの上限を超えています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it has no signed manifest</source>
        <translation>署名付きマニフェストがありません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its manifest cannot be read</source>
        <translation>マニフェストを読み取れません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>its manifest is larger than a pack&apos;s can be</source>
        <translation>マニフェストがパックのものとしては大きすぎます</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>its signature cannot be read</source>
        <translation>署名を読み取れません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>it was made by a newer version of the program</source>
        <translation>新しいバージョンのプログラムで作成されています</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>the manifest&apos;s signature does not verify</source>
        <translation>マニフェストの署名を検証できません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>public_key.pem is not the key that signed the manifest</source>
        <translation>public_key.pem がマニフェストに署名した鍵ではありません</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>it was signed by another key than the one pinned</source>
        <translation>指定した鍵とは別の鍵で署名されています</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>unknown (the signature does not verify; the key below is only what the pack claims)</source>
        <extracomment>Tones (ui/theme/tones.py) of a good, doubtful and bad finding: they follow the theme.</extracomment>
        <translation>不明（署名を検証できません。下の鍵はパックが名乗っているだけです）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>unknown (no signing key could be read)</source>
        <translation>不明（署名鍵を読み取れません）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The pack %1 is intact: every file matches its signed manifest.</source>
        <translation>パック %1 は改ざんされていません。すべてのファイルが署名付きマニフェストと一致します。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The pack %1 is not verified: a key you do not trust signed it.</source>
        <translation>パック %1 は検証されていません。信頼していない鍵で署名されています。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Its files match its manifest, but anyone can make a key and sign a pack with it. Compare the fingerprint above with the one the signer reads to you from their program&apos;s Help &gt; About, by another channel (in person or by telephone). If they are the same, trust the key and check the pack again.</source>
        <translation>ファイルはマニフェストと一致しますが、鍵は誰でも作成でき、その鍵でパックに署名できます。上のフィンガープリントを、署名者が自分のプログラムの「ヘルプ &gt; バージョン情報」から読み上げるものと、別の手段（対面または電話）で照合してください。同じであれば、鍵を信頼してからパックをもう一度確認してください。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The pack %1 was changed after it was signed.</source>
        <translation>パック %1 は署名後に変更されています。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 is not an evidence pack.</source>
        <translation>%1 は証跡パックではありません。</translation>
    </message>
    <message>
        <location line="+192"/>
        <source>Evidence pack check</source>
        <extracomment>Check this pack (a ``Path``) again: a key was trusted, or the person asked. The person wants the list of trusted keys.</extracomment>
        <translation>証跡パックの確認</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pack:</source>
        <translation>パック:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed by:</source>
        <translation>署名者:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Fingerprint:</source>
        <translation>フィンガープリント(&amp;F):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fingerprint of the signing key</source>
        <translation>署名鍵のフィンガープリント</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy</source>
        <translation>コピー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy the fingerprint</source>
        <translation>フィンガープリントをコピー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What was found:</source>
        <translation>見つかった問題:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What was found</source>
        <translation>見つかった問題</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trust this key…</source>
        <translation>この鍵を信頼…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Trusted keys…</source>
        <translation>信頼済みの鍵…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Check again</source>
        <translation>もう一度確認</translation>
    </message>
</context>
<context>
    <name>Palette</name>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/palette_entries.py" line="+21"/>
        <source>Refresh the current panel</source>
        <translation>現在のパネルを更新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lock the window</source>
        <translation>ウィンドウをロック</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change my password</source>
        <translation>自分のパスワードを変更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sign out</source>
        <translation>サインアウト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About this program</source>
        <translation>このプログラムについて</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quit</source>
        <translation>終了</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Language: %1</source>
        <translation>言語: %1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>View: %1</source>
        <translation>ビュー: %1</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/mainwindow/command_palette.py" line="+48"/>
        <source>Panel</source>
        <translation>パネル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Command</source>
        <translation>コマンド</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>アカウント</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved view</source>
        <translation>保存済みビュー</translation>
    </message>
    <message>
        <location line="+112"/>
        <location line="+30"/>
        <source>Looking for accounts…</source>
        <extracomment>Where the focus was when the palette opened: it goes back there on closing.</extracomment>
        <translation>アカウントを検索しています…</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Nothing matches.</source>
        <translation>一致するものはありません。</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>No account has this e-mail, name or id.</source>
        <translation>このメールアドレス、名前、ID のアカウントはありません。</translation>
    </message>
    <message>
        <location line="+65"/>
        <location line="+1"/>
        <source>Command palette</source>
        <translation>コマンドパレット</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Type a panel, a command, or an account&apos;s e-mail, name or id</source>
        <translation>パネル、コマンド、またはアカウントのメールアドレス・名前・ID を入力</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Search</source>
        <translation>検索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Results</source>
        <translation>結果</translation>
    </message>
</context>
<context>
    <name>Panels</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/__init__.py" line="+34"/>
        <source>Accounts</source>
        <translation>アカウント</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Roles</source>
        <translation>ロール</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Portals</source>
        <translation>ポータル</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/invitations/__init__.py" line="+30"/>
        <source>Invitations</source>
        <translation>招待</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>My invitations</source>
        <translation>自分宛ての招待</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/__init__.py" line="+31"/>
        <source>Notification channel types</source>
        <translation>通知チャネルタイプ</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Notification channels</source>
        <translation>通知チャネル</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/__init__.py" line="+30"/>
        <source>Constants</source>
        <translation>定数</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Profile</source>
        <translation>プロフィール</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/__init__.py" line="+40"/>
        <source>Sessions</source>
        <translation>セッション</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Login history</source>
        <translation>サインイン履歴</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Multi-factor authentication</source>
        <translation>多要素認証</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>IP whitelist</source>
        <translation>IP 許可リスト</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/__init__.py" line="+23"/>
        <source>Bulk jobs</source>
        <translation>一括ジョブ</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/__init__.py" line="+33"/>
        <source>Snapshots</source>
        <translation>スナップショット</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Journal</source>
        <translation>ジャーナル</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/__init__.py" line="+25"/>
        <source>Review campaigns</source>
        <translation>レビューキャンペーン</translation>
    </message>
</context>
<context>
    <name>Permissions</name>
    <message>
        <location filename="../src/portal_admin/ui/permissions.py" line="+57"/>
        <source>This session is read-only.</source>
        <translation>このセッションは閲覧専用です。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your role lacks the permission {permission}.</source>
        <translation>あなたのロールには権限 {permission} がありません。</translation>
    </message>
</context>
<context>
    <name>PortalsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+8"/>
        <source>Active</source>
        <translation>有効</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Inactive</source>
        <translation>無効</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+64"/>
        <source>%1 of at most %2 characters</source>
        <translation>%1 / %2 文字</translation>
    </message>
    <message>
        <location line="+211"/>
        <source>&amp;Domain:</source>
        <translation>ドメイン(&amp;D):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Institution:</source>
        <translation>機関(&amp;I):</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>&amp;Remark:</source>
        <translation>備考(&amp;R):</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>&amp;Type:</source>
        <translation>種別(&amp;T):</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+129"/>
        <source>Choose a portal type.</source>
        <extracomment>The created portal record. (code, label) pairs of the portal types. The panel: it keeps the tasks and knows what the signed-in account may do.</extracomment>
        <translation>ポータル種別を選択してください。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+15"/>
        <source>Choose a portal type…</source>
        <translation>ポータル種別を選択…</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+53"/>
        <source>Could not create the portal</source>
        <translation>ポータルを作成できませんでした</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-23"/>
        <source>Create a portal for an institution. The server offers no way to list portals: the table below shows only the portals created in this session.</source>
        <translation>機関のポータルを作成します。サーバーにはポータルを一覧表示する機能がないため、下の表にはこのセッションで作成したポータルのみが表示されます。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Create portal</source>
        <translation>ポータルを作成</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Create the portal</source>
        <translation>ポータルを作成</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="-23"/>
        <source>Create the portal %1.</source>
        <translation>ポータル %1 を作成します。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-25"/>
        <source>Created portal</source>
        <translation>作成したポータル</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>Created:</source>
        <translation>作成日時:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="-129"/>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-23"/>
        <source>Domain</source>
        <translation>ドメイン</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+20"/>
        <source>Domain:</source>
        <translation>ドメイン:</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Id:</source>
        <translation>ID:</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>Institution id</source>
        <translation>機関 ID</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Institution:</source>
        <translation>機関:</translation>
    </message>
    <message>
        <location line="-44"/>
        <source>New portal</source>
        <translation>新しいポータル</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Optional</source>
        <translation>任意</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optional: empty means your own institution</source>
        <translation>任意。空欄の場合は自分の機関</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Portal type</source>
        <translation>ポータル種別</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Portals created in this &amp;session:</source>
        <translation>このセッションで作成したポータル(&amp;S):</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Portals</source>
        <translation>ポータル</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>Portals created in this session</source>
        <translation>このセッションで作成したポータル</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+12"/>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-11"/>
        <source>Remark</source>
        <translation>備考</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+21"/>
        <source>Remark:</source>
        <translation>備考:</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Status:</source>
        <translation>ステータス:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+93"/>
        <source>The domain is longer than %1 characters.</source>
        <translation>ドメインは %1 文字以内で入力してください。</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>The domain is required.</source>
        <translation>ドメインは必須です。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="-81"/>
        <source>The portal %1 was created.</source>
        <extracomment>Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>ポータル %1 を作成しました。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="+13"/>
        <source>The remark is longer than %1 characters.</source>
        <translation>備考は %1 文字以内で入力してください。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_panel.py" line="+79"/>
        <source>Type:</source>
        <translation>種別:</translation>
    </message>
    <message>
        <location line="-10"/>
        <source>Why the portal cannot be created yet</source>
        <translation>ポータルをまだ作成できない理由</translation>
    </message>
    <message>
        <location line="-22"/>
        <source>e.g. portal.example.com (required)</source>
        <translation>例：portal.example.com（必須）</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/portals_controller.py" line="-96"/>
        <source>Created</source>
        <translation>作成日時</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Institution</source>
        <translation>機関</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Type</source>
        <translation>種別</translation>
    </message>
</context>
<context>
    <name>ProfileEditing</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/actions.py" line="+77"/>
        <source>The profile was not saved: your organisation manages it, or one of the same name.</source>
        <translation>プロファイルは保存されませんでした: 組織が管理しているプロファイル、または同じ名前のプロファイルがあります。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The profiles could not be saved: the file is not writable.</source>
        <translation>プロファイルを保存できませんでした: ファイルに書き込めません。</translation>
    </message>
</context>
<context>
    <name>ProfileEditor</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/editor.py" line="+304"/>
        <source>The server showed no certificate to pin.</source>
        <extracomment>An import was accepted: the whole new list of profiles (for ``ProfileStore.save``). Makes the in-process transport the built-in sandbox is tested over.</extracomment>
        <translation>サーバーはピン留めできる証明書を示しませんでした。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The pin was read from the server: compare it with the fingerprint your IT department gives before saving.</source>
        <translation>ピンをサーバーから読み取りました。保存する前に、IT 部門から受け取ったフィンガープリントと照合してください。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>%1 profiles were exported to %2 (without access codes).</source>
        <translation>%1 件の接続プロファイルを %2 にエクスポートしました（アクセスコードは含みません）。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The profiles were imported.</source>
        <translation>接続プロファイルをインポートしました。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>CA bundle</source>
        <translation>CA バンドル</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Certificates (*.pem *.crt *.cer);;All files (*)</source>
        <translation>証明書 (*.pem *.crt *.cer);;すべてのファイル (*)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Connection profile</source>
        <translation>接続プロファイル</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Profile name</source>
        <translation>プロファイル名</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Base URL:</source>
        <translation>ベース URL(&amp;B):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Base URL</source>
        <translation>ベース URL</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Portal &amp;access code:</source>
        <translation>ポータル アクセスコード(&amp;A):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal access code</source>
        <translation>ポータル アクセスコード</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Workspace id:</source>
        <translation>ワークスペース ID(&amp;W):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workspace id</source>
        <translation>ワークスペース ID</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Language:</source>
        <translation>言語(&amp;L):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Environment:</source>
        <translation>環境(&amp;E):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Environment</source>
        <translation>環境</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;CA bundle:</source>
        <translation>CA バンドル(&amp;C):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>CA bundle file</source>
        <translation>CA バンドル ファイル</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Plain http:</source>
        <translation>http 接続:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Allow plain http to other hosts</source>
        <translation>他のホストへの http 接続を許可</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Secure Channel:</source>
        <translation>セキュアチャネル:</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+43"/>
        <source>Allow legacy padding</source>
        <translation>旧形式のパディングを許可</translation>
    </message>
    <message>
        <location line="-40"/>
        <source>&amp;Idle lock:</source>
        <translation>無操作時のロック(&amp;I):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Idle lock minutes</source>
        <translation>無操作時にロックするまでの時間（分）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kiosk:</source>
        <translation>キオスク:</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+37"/>
        <source>Read-only kiosk mode</source>
        <translation>閲覧専用（キオスク）モード</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>&amp;Proxy:</source>
        <translation>プロキシ(&amp;P):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Proxy</source>
        <translation>プロキシ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Certi&amp;ficate pin:</source>
        <translation>証明書のピン(&amp;F):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Certificate pins (SHA-256)</source>
        <translation>証明書のピン（SHA-256）</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Allow plain http to hosts other than this computer</source>
        <translation>他のホストへの http 接続を許可</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Browse…</source>
        <translation>参照…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Test connection</source>
        <translation>接続テスト(&amp;T)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check the server as typed here, step by step, without signing in</source>
        <translation>ここに入力した内容でサーバーを順に確認します（サインインはしません）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Choose a CA bundle file</source>
        <translation>CA バンドル ファイルを選択</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System certificates</source>
        <translation>システムの証明書</translation>
    </message>
    <message>
        <location line="+3"/>
        <source> min</source>
        <translation> 分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Never</source>
        <translation>ロックしない</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow the system</source>
        <translation>システムの設定に従う</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>System settings</source>
        <translation>システムの設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No proxy</source>
        <translation>プロキシなし</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Manual</source>
        <translation>手動</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Proxy URL</source>
        <translation>プロキシ URL</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No user name or password here: a proxy that needs them is set in HTTPS_PROXY, with the system setting.</source>
        <translation>ここにユーザー名やパスワードは入れません。それらが必要なプロキシは、システム設定を選んで HTTPS_PROXY に設定します。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Not pinned</source>
        <translation>ピン留めなし</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Read from server</source>
        <translation>サーバーから読み取る(&amp;R)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Read the pin from the server</source>
        <translation>サーバーからピンを読み取る</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The built-in sandbox: it can be tested here, not changed.</source>
        <translation>内蔵サンドボックスです。ここでテストはできますが、変更はできません。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Managed by your organisation: this profile cannot be changed or deleted here.</source>
        <translation>組織が管理しています。この接続プロファイルはここでは変更も削除もできません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Managed</source>
        <translation>管理対象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>E&amp;xport…</source>
        <translation>エクスポート(&amp;X)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Save the profiles to a file (without access codes)</source>
        <translation>接続プロファイルをファイルに保存します（アクセスコードは含みません）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>I&amp;mport…</source>
        <translation>インポート(&amp;M)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add profiles from a file</source>
        <translation>ファイルから接続プロファイルを追加します</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Problems</source>
        <translation>問題点</translation>
    </message>
</context>
<context>
    <name>ProfileFields</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reference/profile_panel.py" line="+43"/>
        <source>Account id</source>
        <translation>アカウント ID</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Country</source>
        <translation>国</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Email</source>
        <extracomment>The fields shown, in order: (key in the record or its extras, label source text).</extracomment>
        <translation>メールアドレス</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Institution id</source>
        <translation>機関 ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>MFA methods</source>
        <translation>多要素認証</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Permission codes</source>
        <translation>権限コード</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Phone</source>
        <translation>電話番号</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Portal</source>
        <translation>ポータル</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Roles</source>
        <translation>ロール</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Time zone</source>
        <translation>タイムゾーン</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Workspaces</source>
        <translation>ワークスペース</translation>
    </message>
</context>
<context>
    <name>ProfilePanel</name>
    <message>
        <location line="+44"/>
        <source>%1 (primary)</source>
        <translation>%1 (プライマリ)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 in %2</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location line="+161"/>
        <source>%1:</source>
        <translation>%1:</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Change password</source>
        <translation>パスワードの変更</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Change password…</source>
        <translation>パスワードの変更…</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Error</source>
        <translation>エラー</translation>
    </message>
    <message>
        <location line="-11"/>
        <source>My invitations</source>
        <translation>自分宛ての招待</translation>
    </message>
    <message>
        <location line="-190"/>
        <source>No</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <location line="+205"/>
        <source>Profile</source>
        <translation>プロフィール</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Profile details</source>
        <translation>プロフィールの詳細</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reload the profile</source>
        <translation>プロフィールを再読み込み</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Signed-in account</source>
        <translation>サインイン中のアカウント</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>The profile could not be loaded.
%1</source>
        <extracomment>The person asked to change the password (also calls ``extras[&quot;change_password&quot;]``).</extracomment>
        <translation>プロフィールを読み込めませんでした。
%1</translation>
    </message>
    <message>
        <location line="-111"/>
        <source>Yes</source>
        <extracomment>Extras never shown as such (covered by another field, or internal).</extracomment>
        <translation>はい</translation>
    </message>
</context>
<context>
    <name>ProfileTransfer</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/transfer.py" line="+40"/>
        <source>The file cannot be imported: %1 %2. Nothing was imported.</source>
        <translation>このファイルはインポートできません：%1 %2。何もインポートしませんでした。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The file cannot be imported: %1. Nothing was imported.</source>
        <translation>このファイルはインポートできません：%1。何もインポートしませんでした。</translation>
    </message>
    <message>
        <location line="+39"/>
        <location line="+108"/>
        <source>Import profiles</source>
        <translation>接続プロファイルのインポート</translation>
    </message>
    <message>
        <location line="-103"/>
        <source>Adds: %1</source>
        <translation>追加：%1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Replaces: %1</source>
        <translation>置き換え：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Skips (managed or built-in, never replaced): %1</source>
        <translation>スキップ（管理対象または内蔵のため置き換えません）：%1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>The file holds no profile.</source>
        <translation>ファイルに接続プロファイルがありません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Replace my profiles of the same name</source>
        <translation>同じ名前の自分の接続プロファイルを置き換える</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Import</source>
        <translation>インポート(&amp;I)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Profile files (*.json)</source>
        <extracomment>A file was written: its path and the number of profiles in it. An import was accepted: the whole new list of profiles, ready for ``store.save``. Something went wrong (a translated sentence); nothing was written or imported.</extracomment>
        <translation>接続プロファイルのファイル (*.json)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All files (*)</source>
        <translation>すべてのファイル (*)</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Export profiles</source>
        <translation>接続プロファイルのエクスポート</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The profiles cannot be exported: %1 %2.</source>
        <translation>接続プロファイルをエクスポートできません：%1 %2。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The file could not be written: %1</source>
        <translation>ファイルを書き込めませんでした：%1</translation>
    </message>
</context>
<context>
    <name>ProfileValidation</name>
    <message>
        <location filename="../src/portal_admin/ui/profiles/store.py" line="+16"/>
        <source>The profile needs a name.</source>
        <translation>プロファイル名を入力してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Another profile already has this name.</source>
        <translation>この名前は別のプロファイルで使われています。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The base URL must start with https:// and name a host.</source>
        <translation>ベース URL は https:// で始まり、ホスト名を含む必要があります。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Plain http to a host other than this computer needs “Allow plain http”.</source>
        <translation>このコンピューター以外のホストに http で接続するには「他のホストへの http 接続を許可」をオンにしてください。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The CA bundle file does not exist.</source>
        <translation>CA バンドル ファイルが存在しません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The proxy URL must be http://host:port or https://host:port, without a user name or password.</source>
        <translation>プロキシ URL は http://host:port または https://host:port で、ユーザー名やパスワードを含めないでください。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The certificate pin “%1” is not a SHA-256 fingerprint (64 hexadecimal digits).</source>
        <translation>証明書のピン「%1」は SHA-256 のフィンガープリント（16 進数 64 桁）ではありません。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The idle lock time cannot be negative.</source>
        <translation>無操作時のロック時間に負の値は指定できません。</translation>
    </message>
</context>
<context>
    <name>ResumeOffer</name>
    <message>
        <location filename="../src/portal_admin/ui/bulk/resume_offer.py" line="+24"/>
        <source>Bulk jobs waiting</source>
        <translation>再開待ちの一括ジョブ</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 bulk job(s) on this server were paused or interrupted. Resume them from the Bulk jobs panel: targets whose outcome is unknown are read back first, so nothing is changed twice.</source>
        <translation>このサーバーの一括ジョブ %1 件が一時停止または中断されています。「一括ジョブ」パネルから再開してください。結果が不明な対象は先に読み直すため、同じ変更が二度行われることはありません。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Show the jobs</source>
        <translation>ジョブを表示</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Later</source>
        <translation>後で</translation>
    </message>
</context>
<context>
    <name>RevertWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_plan.py" line="-356"/>
        <source>Target</source>
        <translation>対象</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Value</source>
        <translation>値</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>変更前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>変更後</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Now</source>
        <translation>現在</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan</source>
        <translation>計画</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Why, and what to do instead</source>
        <translation>理由と代わりにできること</translation>
    </message>
    <message>
        <location line="+12"/>
        <location line="+283"/>
        <source>Revert</source>
        <translation>元に戻す</translation>
    </message>
    <message>
        <location line="-106"/>
        <source>Set back</source>
        <extracomment>The task making the plan (set by the panel that opened the window). Set once the window is closed: a plan that arrives then is discarded. Why, as a bulk change asks (optional; sent with status changes, journaled).</extracomment>
        <translation>元に戻す</translation>
    </message>
    <message>
        <location line="+72"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV ファイル (*.csv)</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Revert every change of bulk job %1 back to its value before.</source>
        <translation>一括ジョブ %1 のすべての変更を元に戻し、変更前の値にします。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Revert the changes of journal records %1 back to their value before.</source>
        <translation>ジャーナルのレコード %1 の変更を元に戻し、変更前の値にします。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The revert&apos;s plan</source>
        <translation>元に戻す計画</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reading and verifying the journal, then the targets…</source>
        <translation>ジャーナルを読み込んで検証し、続いて対象を読み込んでいます…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Nothing has been sent. To set back: %1; skipped: %2.</source>
        <translation>まだ何も送信していません。元に戻す件数：%1。スキップ：%2。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>none</source>
        <translation>なし</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Export the plan…</source>
        <translation>計画をエクスポート(&amp;E)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Close</source>
        <translation>閉じる</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Run the revert (%1)</source>
        <translation>元に戻す処理を実行（%1）(&amp;R)</translation>
    </message>
</context>
<context>
    <name>RevertWords</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/jobs/revert_words.py" line="+33"/>
        <source>Status</source>
        <extracomment>The values a revert sets back, by the key its records use.</extracomment>
        <translation>状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Phone</source>
        <translation>電話番号</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remark</source>
        <translation>備考</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Language</source>
        <translation>言語</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time zone</source>
        <translation>タイムゾーン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Country</source>
        <translation>国</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist entries</source>
        <translation>IP 許可リストのエントリ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist enabled</source>
        <translation>IP 許可リストの有効化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel status</source>
        <translation>チャネルの状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel name</source>
        <translation>チャネル名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Default channel</source>
        <translation>既定のチャネル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type status</source>
        <translation>チャネルタイプの状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type name</source>
        <translation>チャネルタイプ名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel type description</source>
        <translation>チャネルタイプの説明</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Display order</source>
        <translation>表示順</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Icon</source>
        <translation>アイコン</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Changed since</source>
        <extracomment>A skipped line, in a few words (the plan&apos;s column).</extracomment>
        <translation>その後に変更あり</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Already back</source>
        <translation>すでに元の値</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not allowed</source>
        <translation>許可されていません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not reversible</source>
        <translation>元に戻せません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No value before</source>
        <translation>変更前の値なし</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Was refused</source>
        <translation>拒否されました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Gone</source>
        <translation>存在しません</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Another account&apos;s</source>
        <translation>別のアカウントのもの</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Your own status</source>
        <translation>自分自身の状態</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not authenticated</source>
        <translation>認証されていません</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>A password-reset mail cannot be taken back.</source>
        <extracomment>Why a kind of change cannot be set back, and what can be done instead.</extracomment>
        <translation>パスワード再設定メールは取り消せません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tell the person to ignore the mail; its link expires.</source>
        <translation>メールを無視するよう本人に伝えてください。リンクは期限切れになります。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A password is never recorded, so it cannot be set back.</source>
        <translation>パスワードは記録されないため、元に戻せません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set a new password.</source>
        <translation>新しいパスワードを設定してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A settings check changed nothing.</source>
        <translation>設定の確認では何も変更されていません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing to do.</source>
        <translation>何もする必要はありません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>New backup codes replaced the earlier ones.</source>
        <translation>新しいバックアップコードが以前のものを置き換えました。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep the new codes, or generate another set.</source>
        <translation>新しいコードを保管するか、別のセットを生成してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A revoked authenticator cannot be restored.</source>
        <translation>失効させた認証アプリは復元できません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Enrol the authenticator again.</source>
        <translation>認証アプリをもう一度登録してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A deleted role cannot be restored.</source>
        <translation>削除したロールは復元できません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Create the role again with its permissions and members.</source>
        <translation>権限とメンバーを含めてロールを作り直してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>This program cannot remove a portal.</source>
        <translation>このプログラムではポータルを削除できません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ask the server&apos;s operator to remove it.</source>
        <translation>サーバーの運用担当者に削除を依頼してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A sent invitation cannot be unsent.</source>
        <translation>送信した招待は取り消せません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cancel it in the Invitations panel.</source>
        <translation>「招待」パネルで取り消してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A cancelled invitation cannot be reopened.</source>
        <translation>取り消した招待は再開できません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invite the person again.</source>
        <translation>もう一度招待してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+4"/>
        <source>A revert does not delete what was created.</source>
        <translation>元に戻す処理では作成したものは削除されません。</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+4"/>
        <source>Delete it in the Notifications panel.</source>
        <translation>通知のパネルで削除してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+4"/>
        <source>What was deleted cannot be restored.</source>
        <translation>削除したものは復元できません。</translation>
    </message>
    <message>
        <location line="-3"/>
        <location line="+4"/>
        <source>Create it again.</source>
        <translation>作り直してください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>a cut-off record</source>
        <extracomment>Why the journal does not verify (``journal.Problem.reason``).</extracomment>
        <translation>途中で切れたレコード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a line that is not a record</source>
        <translation>レコードではない行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a record edited after it was written</source>
        <translation>書き込み後に編集されたレコード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a record removed or moved</source>
        <translation>削除または移動されたレコード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>records out of order</source>
        <translation>順序が乱れたレコード</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Set back from %1 to %2.</source>
        <extracomment>What a line&apos;s value is a value of, for its label: (field, kind of row) by the line&apos;s key.</extracomment>
        <translation>%1 から %2 に戻します。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Changed since the record: before %1, after %2, now %3. Check who changed it; set it by hand if it should still go back.</source>
        <translation>記録の後に変更されています：変更前 %1、変更後 %2、現在 %3。誰が変更したか確認し、それでも戻す場合は手動で設定してください。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Already back: the value now is the value before (%1).</source>
        <translation>すでに元の値です：現在の値は変更前の値（%1）です。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 cannot become %2 directly (from %1: %3). Change it to one of those first.</source>
        <translation>%1 から %2 には直接変更できません（%1 から変更できるもの：%3）。先にそのいずれかに変更してください。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This change cannot be set back.</source>
        <translation>この変更は元に戻せません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The record has no usable value before the change. Set it by hand (after: %1).</source>
        <translation>レコードに使える変更前の値がありません。手動で設定してください（変更後：%1）。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The change was refused: nothing to set back.</source>
        <translation>変更は拒否されました。元に戻すものはありません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>It no longer exists.</source>
        <translation>すでに存在しません。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Another account&apos;s IP whitelist: sign in as that account to revert it.</source>
        <translation>別のアカウントの IP 許可リストです。元に戻すにはそのアカウントでサインインしてください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The signed-in account&apos;s own status: sign in as another administrator.</source>
        <translation>サインイン中のアカウント自身の状態です。別の管理者でサインインしてください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The journal record is not authenticated: no checkpoint of this installation vouches for it, this program did not write it, and the job file does not confirm it. Anyone who can write the journal could have added it, so it is left alone.</source>
        <translation>このジャーナルの記録は認証されていません。このインストールのチェックポイントはどれもこの記録を保証しておらず、このプログラムが書いたものでもなく、ジョブファイルでも確認できません。ジャーナルに書き込める人なら誰でも追加できたため、そのままにします。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>at line %1 (record %2): %3</source>
        <translation>%1 行目（レコード %2）：%3</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>it does not match its signed checkpoints (%1)</source>
        <translation>署名付きチェックポイントと一致しません（%1）</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Nothing was sent.</source>
        <translation>何も送信していません。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>This session is read-only: it cannot revert.</source>
        <translation>このセッションは閲覧専用のため、元に戻せません。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The journal does not verify, so nothing in it is reverted: %1.</source>
        <translation>ジャーナルの検証に失敗したため、その中の変更は何も元に戻しません：%1。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The journal has a break at line %1 (record %2: %3) after record %4: records may be missing there, so nothing is reverted across it.</source>
        <translation>ジャーナルにはレコード %4 より後の %1 行目（レコード %2：%3）に切れ目があります。そこでレコードが失われている可能性があるため、切れ目をまたいで元に戻すことはしません。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Record %1 was made on %2 (profile %3), not on the server signed in to (%4): sign in there to revert it.</source>
        <translation>レコード %1 はサインイン中のサーバー（%4）ではなく、%2（接続プロファイル %3）で作成されました。元に戻すにはそちらにサインインしてください。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The journal records no change of this job: nothing to revert.</source>
        <translation>ジャーナルにこのジョブの変更は記録されていません。元に戻すものはありません。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The journal has no such change: %1.</source>
        <translation>ジャーナルにその変更はありません：%1。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Select the records to revert.</source>
        <translation>元に戻すレコードを選択してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Records %1 are not authenticated: no checkpoint of this installation vouches for them, this program did not write them, and no job file here confirms them. Anyone who can write the journal could have added them, so they are not reverted here.</source>
        <translation>レコード %1 は認証されていません。このインストールのチェックポイントはどれもこれらを保証しておらず、このプログラムが書いたものでもなく、ここにあるジョブファイルでも確認できません。ジャーナルに書き込める人なら誰でも追加できたため、ここでは元に戻しません。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A revert of the same job or record is being planned or run in another window or program. Wait for it to end.</source>
        <translation>同じジョブまたは記録を元に戻す処理を、別のウィンドウかプログラムが計画中または実行中です。終わるまでお待ちください。</translation>
    </message>
</context>
<context>
    <name>ReviewQueue</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/reviews/queue_model.py" line="+27"/>
        <source>Item</source>
        <translation>項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>ステータス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Portal</source>
        <translation>ポータル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Institution</source>
        <translation>機関</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Flags</source>
        <translation>フラグ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decision</source>
        <translation>判断</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Keep</source>
        <extracomment>The model&apos;s column of the decision (shown second: ``queue_columns``).</extracomment>
        <translation>維持</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Revoke</source>
        <translation>剥奪</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Don&apos;t know</source>
        <translation>判断できない</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Account</source>
        <translation>アカウント</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role</source>
        <translation>ロール</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitation</source>
        <translation>招待</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New</source>
        <translation>新規</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reactivated</source>
        <translation>再有効化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Administrator</source>
        <translation>管理者</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not updated</source>
        <translation>長期間未更新</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expired</source>
        <translation>期限切れ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Writes</source>
        <translation>書き込み権限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Own account</source>
        <translation>本人のアカウント</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>%1 in the earlier snapshot %2, %3 now</source>
        <translation>以前のスナップショット %2 では %1、現在は %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 in the earlier campaign&apos;s scope %2, %3 now</source>
        <translation>以前のキャンペーンの範囲 %2 では %1、現在は %3</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>not updated for %1 days (since %2)</source>
        <translation>%1 日間更新なし（%2 以降）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pending, expired on %1</source>
        <translation>保留中、%1 に期限切れ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>holds write permissions: %1</source>
        <translation>書き込み権限を保持: %1</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>a system-portal (administrator) account</source>
        <translation>システムポータル（管理者）アカウント</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>the reviewer&apos;s own account: another reviewer decides it</source>
        <translation>レビュー担当者本人のアカウント: 別のレビュー担当者が判断します</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>not in the earlier snapshot %1</source>
        <extracomment>Rows fetched at once, and pages kept. The data role of a row&apos;s :class:`~portal_admin.reviews.Item`. The roles answered (a view asks for a dozen per cell: the others cost nothing). A flag&apos;s reason in the program&apos;s languages, by the engine&apos;s reason code (``reviews/flags.py``): its parameters fill %1, %2 ...</extracomment>
        <translation>以前のスナップショット %1 になし</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not in the earlier campaign&apos;s scope %1</source>
        <translation>以前のキャンペーンの範囲 %1 になし</translation>
    </message>
</context>
<context>
    <name>RoleColumns</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_model.py" line="+49"/>
        <source>Description</source>
        <translation>説明</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="-26"/>
        <source>Members</source>
        <translation>メンバー</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Permissions</source>
        <translation>権限</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Type</source>
        <translation>種別</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Updated</source>
        <translation>更新日時</translation>
    </message>
</context>
<context>
    <name>RolesPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+286"/>
        <source>%n role(s)</source>
        <translation>%n 件のロール</translation>
    </message>
    <message>
        <location line="-117"/>
        <source>&amp;Permission codes:</source>
        <translation>権限コード(&amp;P):</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Choose a role to see its permissions.</source>
        <translation>ロールを選択すると権限が表示されます。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+134"/>
        <source>Choose a role.</source>
        <extracomment>The role the detail shows (None: nothing chosen). &quot;loading&quot;, &quot;ready&quot;, &quot;empty&quot; or &quot;error&quot;. The panel: it keeps the tasks and knows what the signed-in account may do.</extracomment>
        <translation>ロールを選択してください。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+3"/>
        <source>Copy id</source>
        <translation>ID をコピー</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Copy the role id</source>
        <translation>ロール ID をコピー</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+57"/>
        <source>Could not delete the role %1</source>
        <translation>ロール %1 を削除できませんでした</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+7"/>
        <source>Created:</source>
        <translation>作成日時:</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-28"/>
        <location line="+2"/>
        <source>Delete role</source>
        <translation>ロールの削除</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="+8"/>
        <source>Delete role…</source>
        <translation>ロールを削除…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Delete the role</source>
        <translation>ロールを削除</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-11"/>
        <source>Delete the role %1? This cannot be undone.</source>
        <translation>ロール %1 を削除しますか？この操作は元に戻せません。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="-12"/>
        <source>Description:</source>
        <translation>説明:</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Id:</source>
        <translation>ID:</translation>
    </message>
    <message>
        <location line="+122"/>
        <source>Loading…</source>
        <extracomment>Shown, the controller starts loading (``controller.start()``).</extracomment>
        <translation>読み込み中…</translation>
    </message>
    <message>
        <location line="-113"/>
        <source>Members:</source>
        <translation>メンバー:</translation>
    </message>
    <message>
        <location line="+146"/>
        <source>Number of roles</source>
        <translation>ロール数</translation>
    </message>
    <message>
        <location line="-138"/>
        <source>Permission codes</source>
        <translation>権限コード</translation>
    </message>
    <message>
        <location line="+130"/>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Refresh the roles</source>
        <translation>ロールを更新</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>Reload the roles (F5)</source>
        <translation>ロールを再読み込み (F5)</translation>
    </message>
    <message>
        <location line="-124"/>
        <source>Role</source>
        <translation>ロール</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Role details</source>
        <translation>ロールの詳細</translation>
    </message>
    <message>
        <location line="-21"/>
        <source>Role id</source>
        <translation>ロール ID</translation>
    </message>
    <message>
        <location line="+149"/>
        <location line="+2"/>
        <source>Roles</source>
        <translation>ロール</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-18"/>
        <source>The OWNER role is protected: it can never be deleted.</source>
        <translation>OWNER ロールは保護されているため、削除できません。</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>The role %1 was deleted.</source>
        <translation>ロール %1 を削除しました。</translation>
    </message>
    <message>
        <location line="-59"/>
        <source>The role is in use by %n member(s): give them another role before deleting it.</source>
        <translation>このロールは %n 人のメンバーに割り当てられています。削除する前に、メンバーに別のロールを割り当ててください。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="-27"/>
        <source>The roles could not be loaded.</source>
        <translation>ロールを読み込めませんでした。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="+17"/>
        <source>The server refuses if members still hold the role.</source>
        <translation>このロールを持つメンバーが残っている場合、サーバーは削除を拒否します。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_panel.py" line="-4"/>
        <source>The workspace has no roles.</source>
        <translation>このワークスペースにはロールがありません。</translation>
    </message>
    <message>
        <location line="-118"/>
        <source>Type:</source>
        <translation>種別:</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Updated:</source>
        <translation>更新日時:</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Why the role cannot be deleted</source>
        <translation>ロールを削除できない理由</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/accounts/roles_controller.py" line="-144"/>
        <source>“%1”</source>
        <translation>「%1」</translation>
    </message>
</context>
<context>
    <name>SavedViews</name>
    <message>
        <location filename="../src/portal_admin/ui/lists/saved_views.py" line="+139"/>
        <source>The view “%1” no longer exists.</source>
        <extracomment>How long the list must stay unchanged before its state is written. The view shown or the list of views changed (the button&apos;s text follows). Something went wrong that the person should read (a translated sentence).</extracomment>
        <translation>ビュー「%1」はもう存在しません。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The view could not be saved: the settings file is not writable.</source>
        <translation>ビューを保存できませんでした: 設定ファイルに書き込めません。</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>The view could not be deleted: the settings file is not writable.</source>
        <translation>ビューを削除できませんでした: 設定ファイルに書き込めません。</translation>
    </message>
    <message>
        <location line="+28"/>
        <location line="+41"/>
        <source>Default view</source>
        <translation>既定のビュー</translation>
    </message>
    <message>
        <location line="-29"/>
        <source>Save view as…</source>
        <translation>名前を付けてビューを保存…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Save changes to “%1”</source>
        <translation>「%1」に変更を保存</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Delete view “%1”</source>
        <translation>ビュー「%1」を削除</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reset to default</source>
        <translation>既定に戻す</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No filters, the first sort and columns, widths fitted</source>
        <translation>フィルターなし、最初の並べ替えと列、幅は内容に合わせる</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>View: %1</source>
        <translation>ビュー: %1</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>This list already has 50 saved views; delete one first.</source>
        <translation>この一覧にはすでに 50 個のビューが保存されています。先に 1 つ削除してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>A view name can have at most 60 characters.</source>
        <translation>ビュー名は 60 文字以内にしてください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The view needs a name.</source>
        <translation>ビューには名前が必要です。</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/lists/saved_view_dialog.py" line="+25"/>
        <source>Save view</source>
        <translation>ビューを保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>View name</source>
        <translation>ビュー名</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The filters, sort and columns of this list are kept on this computer.</source>
        <translation>この一覧のフィルター・並べ替え・列をこのコンピューターに保存します。</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>A view of this name exists: saving replaces it.</source>
        <translation>この名前のビューがあります。保存すると置き換えられます。</translation>
    </message>
</context>
<context>
    <name>SecretField</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/notifications/secrets.py" line="+66"/>
        <source>Unchanged (type to replace)</source>
        <translation>変更なし（入力すると置き換え）</translation>
    </message>
</context>
<context>
    <name>SecurityPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/common.py" line="+38"/>
        <source>Sign in to see this panel.</source>
        <translation>このパネルを表示するにはサインインしてください。</translation>
    </message>
</context>
<context>
    <name>SecurityText</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/formatting.py" line="+16"/>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Blocked</source>
        <translation>ブロック</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>%1 days ago</source>
        <translation>%1 日前</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>%1 h ago</source>
        <translation>%1 時間前</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>%1 min ago</source>
        <translation>%1 分前</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 months ago</source>
        <translation>%1 か月前</translation>
    </message>
    <message>
        <location line="+58"/>
        <source>No</source>
        <translation>いいえ</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Yes</source>
        <translation>はい</translation>
    </message>
    <message>
        <location line="-68"/>
        <source>in the future</source>
        <translation>未来の日時</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>just now</source>
        <translation>たった今</translation>
    </message>
</context>
<context>
    <name>SessionsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/sessions.py" line="+45"/>
        <source>Device</source>
        <translation>デバイス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Client IP</source>
        <translation>クライアント IP</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>User agent</source>
        <translation>ユーザーエージェント</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Signed in</source>
        <translation>サインイン日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Last activity</source>
        <translation>最終アクティビティ</translation>
    </message>
    <message>
        <location line="+201"/>
        <source>&amp;Active sessions</source>
        <translation>アクティブなセッション(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Active sessions</source>
        <translation>アクティブなセッション</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Last sign-in IP:</source>
        <translation>最終サインイン IP:</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Last sign-in:</source>
        <translation>最終サインイン:</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Maximum sessions:</source>
        <translation>最大セッション数:</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Password changed:</source>
        <translation>パスワード変更日時:</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Refresh the sessions</source>
        <translation>セッションを更新</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+2"/>
        <source>Session settings</source>
        <translation>セッションの設定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Single sign-on:</source>
        <translation>シングルサインオン:</translation>
    </message>
    <message>
        <location line="-148"/>
        <source>This device</source>
        <translation>このデバイス</translation>
    </message>
</context>
<context>
    <name>SignInChart</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/chart.py" line="+56"/>
        <source>%1 successful and %2 failed sign-ins from %3 to %4</source>
        <translation>%3～%4 のサインイン：成功 %1 件、失敗 %2 件</translation>
    </message>
    <message>
        <location line="+145"/>
        <source>%1: %2 successful, %3 failed</source>
        <translation>%1：成功 %2 件、失敗 %3 件</translation>
    </message>
    <message>
        <location line="-30"/>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="+30"/>
        <source>Failed</source>
        <translation>失敗</translation>
    </message>
    <message>
        <location line="-106"/>
        <location line="+38"/>
        <source>No sign-ins to show.</source>
        <translation>表示するサインインはありません。</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>Sign-ins per day</source>
        <translation>1 日あたりのサインイン数</translation>
    </message>
    <message>
        <location line="+99"/>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="-1"/>
        <source>Successful</source>
        <translation>成功</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/panels/security/chart_table.py" line="-1"/>
        <source>Day</source>
        <translation>日付</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Total</source>
        <translation>合計</translation>
    </message>
</context>
<context>
    <name>SignInErrors</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/controller.py" line="+20"/>
        <source>The email address or the password is wrong.</source>
        <extracomment>Clearer summaries for the error codes the sign-in forms meet.</extracomment>
        <translation>メールアドレスまたはパスワードが正しくありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The code is wrong or has expired. Check it and try again.</source>
        <translation>コードが正しくないか、有効期限が切れています。確認してもう一度お試しください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>A code was sent a moment ago. Wait until the countdown ends.</source>
        <translation>コードは先ほど送信されました。カウントダウンが終わるまでお待ちください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The sign-in session has expired. Sign in again.</source>
        <translation>サインイン セッションの有効期限が切れました。もう一度サインインしてください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The reset token is wrong, has expired or was already used.</source>
        <translation>リセットトークンが正しくないか、有効期限が切れているか、すでに使用されています。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The current password is wrong.</source>
        <translation>現在のパスワードが正しくありません。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Too many attempts. Wait a while, then try again.</source>
        <translation>試行回数が多すぎます。しばらく待ってから、もう一度お試しください。</translation>
    </message>
</context>
<context>
    <name>SignInFlow</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/flow.py" line="+219"/>
        <source>You can send another code in %1 seconds.</source>
        <extracomment>list[MfaMethod] offered by the server for the current login session. Seconds until another email code may be sent (0: now). Seconds left in the login session (0 when none runs). Signed in: the account&apos;s email. The selected connection profile changed. An email address the pages should show (after setup or a change of page).</extracomment>
        <translation>%1 秒後に別のコードを送信できます。</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>A code was sent to %1. It is valid for %2 minutes.</source>
        <translation>%1 にコードを送信しました。有効期間は %2 分です。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A code was sent to %1.</source>
        <translation>%1 にコードを送信しました。</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>The sign-in session expired before the code was entered. Sign in again.</source>
        <translation>コードが入力される前にサインイン セッションの有効期限が切れました。もう一度サインインしてください。</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Enter the challenge token.</source>
        <translation>チャレンジトークンを入力してください。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>If an account exists for %1, an email with a reset token is on its way. Check your mail.</source>
        <translation>%1 のアカウントが存在する場合は、リセットトークンを記載したメールが送信されます。メールを確認してください。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Enter the reset token from the email.</source>
        <translation>メールに記載されたリセットトークンを入力してください。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Your password was changed. Sign in with the new password.</source>
        <translation>パスワードを変更しました。新しいパスワードでサインインしてください。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Enter the setup session id from the email.</source>
        <translation>メールに記載されたセットアップ セッション ID を入力してください。</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Your password is set. Sign in with it now.</source>
        <translation>パスワードを設定しました。このパスワードでサインインしてください。</translation>
    </message>
</context>
<context>
    <name>SignInForms</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/forms.py" line="+83"/>
        <source>Information</source>
        <translation>情報</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Working</source>
        <translation>処理中</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Please wait</source>
        <translation>お待ちください</translation>
    </message>
</context>
<context>
    <name>SignInPages</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/pages.py" line="+304"/>
        <source>Sign in to unlock</source>
        <extracomment>&quot;Edit…&quot; (the chosen profile) or &quot;New…&quot; (None) was clicked. The demo box&apos;s &quot;Fill in the administrator&quot; was clicked. Edit the chosen profile (a built-in or managed one opens read-only, to test it). True in the idle lock&apos;s sign-in window (see :meth:`set_unlocking`).</extracomment>
        <translation>サインインしてロックを解除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The window was locked. Sign in again with your password and a second factor to continue where you left off.</source>
        <translation>ウィンドウがロックされました。パスワードと 2 段階目の認証で再度サインインすると、中断したところから再開できます。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Sign in to the System Portal</source>
        <translation>System Portal にサインイン</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Choose the server, then enter your email address and password.</source>
        <translation>サーバーを選択し、メールアドレスとパスワードを入力してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Connection:</source>
        <translation>接続先(&amp;C):</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+336"/>
        <source>&amp;Email:</source>
        <translation>メールアドレス(&amp;E):</translation>
    </message>
    <message>
        <location line="-335"/>
        <source>&amp;Password:</source>
        <translation>パスワード(&amp;P):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>name@example.com</source>
        <translation>name@example.com</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+26"/>
        <source>Sign in</source>
        <translation>サインイン</translation>
    </message>
    <message>
        <location line="-24"/>
        <location line="+26"/>
        <location line="+297"/>
        <source>Forgot your password?</source>
        <translation>パスワードをお忘れですか？</translation>
    </message>
    <message>
        <location line="-321"/>
        <source>I have a reset token</source>
        <translation>リセットトークンをお持ちの場合</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+29"/>
        <source>First-time password setup</source>
        <translation>初回パスワード設定</translation>
    </message>
    <message>
        <location line="-223"/>
        <source>Demo accounts (built-in sandbox)</source>
        <extracomment>Wrapped hints below the form (a QFormLayout sizes wrapped labels badly). The window&apos;s notice, error panel and busy bar are moved here when the page shows. &quot;Fill in the administrator&quot; was clicked.</extracomment>
        <translation>デモ用アカウント（内蔵サンドボックス）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>administrator</source>
        <translation>管理者</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>read-only auditor</source>
        <translation>監査担当者（閲覧専用）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>awaits approval</source>
        <translation>承認待ち</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>(none yet)</source>
        <translation>（未設定）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>first-time setup</source>
        <translation>初回設定</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Codes, reset tokens and setup ids arrive in the demo mailbox.</source>
        <translation>コード、リセットトークン、セットアップ ID はデモ用メールボックスに届きます。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Fill in the administrator</source>
        <translation>管理者の情報を入力</translation>
    </message>
    <message>
        <location line="+158"/>
        <source>Connection profile</source>
        <translation>接続プロファイル</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Environment of the selected profile</source>
        <translation>選択したプロファイルの環境</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+318"/>
        <source>Email address</source>
        <translation>メールアドレス</translation>
    </message>
    <message>
        <location line="-317"/>
        <source>Password</source>
        <translation>パスワード</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enter a password reset token</source>
        <translation>パスワードのリセットトークンを入力</translation>
    </message>
    <message>
        <location line="-180"/>
        <source>Demo accounts</source>
        <translation>デモ用アカウント</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fill in the demo administrator&apos;s email and password</source>
        <translation>デモ用管理者のメールアドレスとパスワードを入力します</translation>
    </message>
    <message>
        <location line="+155"/>
        <source>E&amp;dit…</source>
        <translation>編集(&amp;D)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit or test the connection profile</source>
        <translation>接続プロファイルを編集またはテスト</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Ne&amp;w…</source>
        <translation>新規(&amp;W)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New connection profile</source>
        <translation>新しい接続プロファイル</translation>
    </message>
    <message>
        <location line="+131"/>
        <source>Send a code to %1, then type it below.</source>
        <translation>%1 にコードを送信し、下に入力してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Open your authenticator app and type the code it shows for this account.</source>
        <translation>認証アプリを開き、このアカウント用に表示されているコードを入力してください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Send code</source>
        <translation>コードを送信</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+10"/>
        <source>Resend code</source>
        <translation>コードを再送信</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>You can ask for a new code in %1 seconds.</source>
        <translation>%1 秒後に新しいコードを要求できます。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No code arrived? You can send a new one now.</source>
        <translation>コードが届きませんか？新しいコードを送信できます。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Resend countdown</source>
        <translation>再送信までのカウントダウン</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Time left to finish signing in: %1</source>
        <translation>サインイン完了までの残り時間：%1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Time left to finish signing in</source>
        <translation>サインイン完了までの残り時間</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Confirm it is you</source>
        <translation>本人確認</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The password for %1 is right. Now confirm with a second factor.</source>
        <translation>%1 のパスワードを確認しました。続いて 2 段階目の認証を行ってください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Method:</source>
        <translation>方式:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Code by email</source>
        <translation>メールで届くコード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Code from an authenticator app</source>
        <translation>認証アプリのコード</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Code:</source>
        <translation>コード(&amp;C):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>6 digits</source>
        <translation>6 桁</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+110"/>
        <location line="+75"/>
        <source>Back</source>
        <translation>戻る</translation>
    </message>
    <message>
        <location line="-184"/>
        <source>Verify and sign in</source>
        <translation>確認してサインイン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fill in the demo code</source>
        <translation>デモ用コードを入力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Second factor methods</source>
        <translation>2 段階目の認証方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Verification code</source>
        <translation>確認コード</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Back to email and password</source>
        <translation>メールアドレスとパスワードの入力に戻る</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Verify the code and sign in</source>
        <translation>コードを確認してサインイン</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Fill in the sandbox&apos;s current authenticator code</source>
        <translation>サンドボックスの現在の認証アプリコードを入力します</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Your account is waiting for approval</source>
        <translation>アカウントは承認待ちです</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The email, password and code for %1 were right, but an administrator has not yet approved this account.</source>
        <translation>%1 のメールアドレス、パスワード、コードは正しく確認されましたが、このアカウントはまだ管理者に承認されていません。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>You cannot use the program until the account is approved. Ask your administrator to approve it, then sign in again. Nothing was changed.</source>
        <translation>アカウントが承認されるまでプログラムは使用できません。管理者に承認を依頼してから、もう一度サインインしてください。変更は何も行われていません。</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+3"/>
        <location line="+48"/>
        <location line="+29"/>
        <location line="+4"/>
        <location line="+41"/>
        <source>Back to sign-in</source>
        <translation>サインインに戻る</translation>
    </message>
    <message>
        <location line="-124"/>
        <source>Why you cannot enter</source>
        <translation>サインインできない理由</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>What to do</source>
        <translation>対処方法</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Enter your email address. If an account exists for it, the server emails a reset token you can use to choose a new password.</source>
        <translation>メールアドレスを入力してください。そのアドレスのアカウントが存在する場合は、新しいパスワードの設定に使うリセットトークンがサーバーからメールで届きます。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>C&amp;hallenge token:</source>
        <translation>チャレンジトークン(&amp;H):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The bot-challenge token your organisation gives you for password recovery.</source>
        <translation>パスワード回復用に組織から提供されるボット対策のチャレンジトークンです。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Send reset email</source>
        <translation>リセットメールを送信</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Challenge token</source>
        <translation>チャレンジトークン</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Send the password reset email</source>
        <translation>パスワード リセット用のメールを送信</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Check your mail</source>
        <translation>メールを確認してください</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open the email, copy the reset token it contains, then choose “Enter the reset token”. The token works once and expires.</source>
        <translation>メールを開いて記載されたリセットトークンをコピーし、「リセットトークンを入力」を選択してください。トークンは 1 回だけ使用でき、有効期限があります。</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+5"/>
        <source>Enter the reset token</source>
        <translation>リセットトークンを入力</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>&amp;New password:</source>
        <translation>新しいパスワード(&amp;N):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Repeat it:</source>
        <translation>もう一度入力(&amp;R):</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>New password</source>
        <translation>新しいパスワード</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Repeat the new password</source>
        <translation>新しいパスワード（確認）</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Choose a new password</source>
        <translation>新しいパスワードの設定</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Paste the reset token from the email and choose a new password.</source>
        <translation>メールに記載されたリセットトークンを貼り付け、新しいパスワードを設定してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Reset &amp;token:</source>
        <translation>リセットトークン(&amp;T):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set new password</source>
        <translation>新しいパスワードを設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset token</source>
        <translation>リセットトークン</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the new password</source>
        <translation>新しいパスワードを設定</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Set up your password</source>
        <translation>パスワードの設定</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your account was created for you. Paste the setup id from the welcome email and choose your password.</source>
        <translation>アカウントは作成済みです。ウェルカムメールに記載されたセットアップ ID を貼り付け、パスワードを設定してください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Setup &amp;id:</source>
        <translation>セットアップ ID(&amp;I):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set password</source>
        <translation>パスワードを設定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Setup session id</source>
        <translation>セットアップ セッション ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set the password</source>
        <translation>パスワードを設定</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Signed in</source>
        <translation>サインインしました</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Opening the program…</source>
        <translation>プログラムを開いています…</translation>
    </message>
</context>
<context>
    <name>SignInValidation</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/validation.py" line="+20"/>
        <source>Enter your email address.</source>
        <translation>メールアドレスを入力してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The email address is not valid: it needs a name, an @ and a domain.</source>
        <translation>メールアドレスが正しくありません。名前、@、ドメインが必要です。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Enter your password.</source>
        <translation>パスワードを入力してください。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Enter the verification code.</source>
        <translation>確認コードを入力してください。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Enter a new password.</source>
        <translation>新しいパスワードを入力してください。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The new password must have at least %1 characters.</source>
        <translation>新しいパスワードは %1 文字以上にしてください。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Type the new password a second time to confirm it.</source>
        <translation>確認のため、新しいパスワードをもう一度入力してください。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The two new passwords do not match.</source>
        <translation>入力した新しいパスワードが一致しません。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>At least %1 characters.</source>
        <translation>%1 文字以上。</translation>
    </message>
</context>
<context>
    <name>SignInWindow</name>
    <message>
        <location filename="../src/portal_admin/ui/signin/window.py" line="+465"/>
        <source>The built-in sandbox accepts the token already filled in.</source>
        <extracomment>The page class of each step (the credentials page is built with the window). The challenge token the sandbox accepts on forgot-password (see docs/sandbox.md). The person asked to edit a profile (or to make one: None); the program opens the editor. The person asked to review a campaign file without signing in (docs/reviews.md). The person closed the window (without signing in, or after). The window was painted for the first time (it is on screen). Set by :meth:`pin_email`: only that account may sign in here.</extracomment>
        <translation>内蔵サンドボックスでは、入力済みのトークンをそのまま使用できます。</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Unlock — Portal Admin</source>
        <translation>ロック解除 — Portal Admin</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sign in — Portal Admin</source>
        <translation>サインイン — Portal Admin</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Demo mailbox…</source>
        <translation>デモ用メールボックス…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open the demo mailbox</source>
        <translation>デモ用メールボックスを開く</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Re&amp;view a campaign file…</source>
        <translation>キャンペーンファイルをレビュー(&amp;V)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Review a campaign file</source>
        <translation>キャンペーンファイルをレビュー</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Decide an access-review campaign from its file alone, without signing in</source>
        <translation>サインインせずに、アクセスレビューのキャンペーンをファイルだけで判断します</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sign-in steps</source>
        <translation>サインインの手順</translation>
    </message>
</context>
<context>
    <name>SnapshotDiff</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/diff_view.py" line="+28"/>
        <source>What</source>
        <translation>種類</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Change</source>
        <translation>変更</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Name or e-mail</source>
        <translation>名前またはメールアドレス</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Field</source>
        <translation>項目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Before</source>
        <translation>変更前</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>After</source>
        <translation>変更後</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Accounts</source>
        <extracomment>The kinds of change, as the diff names them, and their words.</extracomment>
        <translation>アカウント</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>ロール</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>招待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>IP whitelist</source>
        <translation>IP 許可リスト</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFA</source>
        <translation>MFA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channels</source>
        <translation>チャネル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Channel types</source>
        <translation>チャネルタイプ</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Settings</source>
        <translation>設定</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>added</source>
        <translation>追加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>removed</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>changed</source>
        <translation>変更</translation>
    </message>
    <message>
        <location line="+123"/>
        <source>The first %1 of %2 changes are shown; exports hold all of them.</source>
        <extracomment>Rows shown at most; the export writes every change. &quot;csv&quot; or &quot;pack&quot;: the person asked to export what is shown. The server&apos;s labels each snapshot keeps (old, new).</extracomment>
        <translation>%2 件中、最初の %1 件の変更を表示しています。エクスポートにはすべて含まれます。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>%1 of %2 changes shown.</source>
        <translation>%2 件中 %1 件の変更を表示しています。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>All kinds</source>
        <translation>すべての種類</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Kind of change</source>
        <translation>変更の種類</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filter by id, name or value</source>
        <translation>ID、名前、値で絞り込み</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Change filter</source>
        <translation>変更の絞り込み</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export CSV…</source>
        <translation>CSV エクスポート…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Evidence pack…</source>
        <translation>証跡パック…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Changes between the snapshots</source>
        <translation>スナップショット間の変更</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Choose two snapshots and compare them, or take a new one.</source>
        <translation>2 つのスナップショットを選んで比較するか、新しいスナップショットを取得してください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Changes from the snapshot of %1 to the snapshot of %2</source>
        <translation>%1 のスナップショットから %2 のスナップショットへの変更</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>No change: the two snapshots hold the same access.</source>
        <translation>変更なし: 2 つのスナップショットのアクセス権は同じです。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 %2: %3</source>
        <translation>%1（%2）: %3</translation>
    </message>
</context>
<context>
    <name>SnapshotsPanel</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/snapshots_panel.py" line="+57"/>
        <source>Taken</source>
        <translation>取得日時</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Server</source>
        <translation>サーバー</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Account</source>
        <translation>アカウント</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accounts</source>
        <translation>アカウント数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roles</source>
        <translation>ロール</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Invitations</source>
        <translation>招待</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>File</source>
        <translation>ファイル</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Reading accounts: %1 of %2</source>
        <translation>アカウントを読み取り中: %1 / %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading roles</source>
        <translation>ロールを読み取り中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading invitations</source>
        <translation>招待を読み取り中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading the security settings</source>
        <translation>セキュリティ設定を読み取り中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reading notification channels</source>
        <translation>通知チャネルを読み取り中</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The file %1 does not exist.</source>
        <translation>ファイル %1 は存在しません。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 is not a snapshot of this program, or it is damaged.</source>
        <translation>%1 はこのプログラムのスナップショットではないか、破損しています。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is an incomplete snapshot: it was interrupted before it was finished.</source>
        <translation>%1 は不完全なスナップショットです。完了する前に中断されました。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was made by a newer version of the program.</source>
        <translation>%1 は新しいバージョンのプログラムで作成されました。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 holds SQL that no snapshot of this program has (a trigger, a view or another object): it was refused unread.</source>
        <translation>%1 には、このプログラムのスナップショットにはない SQL（トリガー、ビュー、その他のオブジェクト）が含まれています。読み込まずに拒否しました。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 does not have the tables of a snapshot of this program: refused.</source>
        <translation>%1 にはこのプログラムのスナップショットのテーブル構成がありません。拒否しました。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 is damaged: its integrity check failed, so it was not used.</source>
        <translation>%1 は破損しています。整合性チェックに失敗したため、使用しませんでした。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 could not be read in time, so it was not used.</source>
        <translation>%1 を時間内に読み込めなかったため、使用しませんでした。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 was changed since it was opened: open it again.</source>
        <translation>%1 は開いた後に変更されました。もう一度開いてください。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>This file cannot be used as a snapshot.</source>
        <translation>このファイルはスナップショットとして使用できません。</translation>
    </message>
    <message>
        <location line="+224"/>
        <source>Select two snapshots.</source>
        <extracomment>Reads this installation&apos;s fingerprint, or None (called in a worker thread; makes no key). By default ``trust.own_fingerprint`` of the key store. The last pack check shown, and the list of trusted keys (while open). Snapshot files opened from elsewhere (listed until the program ends).</extracomment>
        <translation>スナップショットを 2 つ選択してください。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>An access-review campaign of the selected snapshot</source>
        <translation>選択したスナップショットのアクセスレビューキャンペーン</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+7"/>
        <source>Select one snapshot.</source>
        <translation>スナップショットを 1 つ選択してください。</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>A signed zip of the selected snapshot: CSV and a report</source>
        <translation>選択したスナップショットの署名付き zip（CSV とレポート）</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>The snapshot was cancelled; nothing was kept.</source>
        <translation>スナップショットはキャンセルされました。何も保存されていません。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>The snapshot could not be finished; nothing was kept.</source>
        <translation>スナップショットを完了できませんでした。何も保存されていません。</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Snapshot taken: %1 accounts, %2 roles, %3 invitations.</source>
        <translation>スナップショットを取得しました: アカウント %1 件、ロール %2 件、招待 %3 件。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Starting the snapshot…</source>
        <translation>スナップショットを開始しています…</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Snapshot taken. There was no earlier snapshot of this server: this one is the baseline of the next comparison.</source>
        <translation>スナップショットを取得しました。このサーバーの以前のスナップショットはないため、これが次回の比較の基準になります。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Snapshot taken and compared with the one of %1: %2 changes.</source>
        <translation>スナップショットを取得し、%1 のスナップショットと比較しました: 変更 %2 件。</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Snapshots (*.sqlite);;All files (*)</source>
        <translation>スナップショット (*.sqlite);;すべてのファイル (*)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Evidence packs (*.zip);;All files (*)</source>
        <translation>証跡パック (*.zip);;すべてのファイル (*)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>The list of trusted keys cannot be read: only this installation&apos;s key is trusted for now.</source>
        <translation>信頼済みの鍵の一覧を読み取れません。現在はこのインストールの鍵だけを信頼しています。</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>%1 changes written to %2.</source>
        <translation>%1 件の変更を %2 に書き出しました。</translation>
    </message>
    <message>
        <location line="+88"/>
        <source>Take snapshot</source>
        <translation>スナップショットを取得</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Snapshot and compare with the last</source>
        <translation>取得して前回と比較</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Take a snapshot now and show what changed since the last one of this server</source>
        <translation>今スナップショットを取得し、このサーバーの前回のスナップショット以降の変更を表示します</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Cancel</source>
        <translation>キャンセル</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Refresh</source>
        <translation>更新</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>List the snapshots again (F5)</source>
        <translation>スナップショットの一覧を再読み込み (F5)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Compare the two selected</source>
        <translation>選択した 2 件を比較</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open a snapshot file…</source>
        <translation>スナップショットファイルを開く…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Evidence pack…</source>
        <translation>証跡パック…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Review campaign…</source>
        <translation>レビューキャンペーン…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Verify a pack…</source>
        <translation>パックを検証…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Check an evidence pack&apos;s signature and every file in it</source>
        <translation>証跡パックの署名と含まれるすべてのファイルを検証します</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Trusted keys…</source>
        <translation>信頼済みの鍵…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The signing keys whose packs this computer accepts as verified</source>
        <translation>このコンピューターが、署名したパックを検証済みとして受け入れる署名鍵</translation>
    </message>
    <message>
        <location line="+5"/>
        <location line="+4"/>
        <source>Snapshots</source>
        <translation>スナップショット</translation>
    </message>
    <message>
        <location line="-2"/>
        <source>Snapshot progress</source>
        <translation>スナップショットの進捗</translation>
    </message>
</context>
<context>
    <name>Tour</name>
    <message>
        <location filename="../src/portal_admin/ui/tour/runner.py" line="+331"/>
        <source>Suspended accounts</source>
        <extracomment>An account id the sandbox does not know: its 404 is the tour&apos;s real error. The sandbox&apos;s demo auditor (read permissions only), who signs in for the kiosk tour. Set to a folder, the tour pauses at each stop for an outside checker (the AT-SPI walk of ``tests/accessibility``): it writes ``stop-N.json`` (``{&quot;n&quot;: N, &quot;name&quot;: ...}``) there, keeps the event loop turning (so the checker&apos;s questions are answered) until ``done-N`` appears, and writes ``end.json`` (``{&quot;stops&quot;: N, &quot;problems&quot;: [...]}``) when the tour is over. How long one stop waits for the checker before the tour goes on (noted as a problem). The folder of the stop-by-stop handshake (see :data:`PAUSE_ENV`); None: no pauses. The window sizes the workspace is pictured at.</extracomment>
        <translation>一時停止中のアカウント</translation>
    </message>
    <message>
        <location filename="../src/portal_admin/ui/tour/dialogs.py" line="+56"/>
        <source>Suspended</source>
        <translation>一時停止</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>Suspend the account</source>
        <translation>アカウントを一時停止</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend the account ann@example.com.</source>
        <translation>アカウント ann@example.com を一時停止します。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Suspend</source>
        <translation>一時停止</translation>
    </message>
</context>
<context>
    <name>TrustedKeys</name>
    <message>
        <location filename="../src/portal_admin/ui/panels/evidence/trust_dialog.py" line="+48"/>
        <location line="+183"/>
        <source>Name</source>
        <translation>名前</translation>
    </message>
    <message>
        <location line="-182"/>
        <location line="+181"/>
        <source>Fingerprint</source>
        <translation>フィンガープリント</translation>
    </message>
    <message>
        <location line="-180"/>
        <source>Added</source>
        <translation>追加日時</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>This is not a key fingerprint. A fingerprint is 64 hexadecimal digits (0–9, a–f), as the signer&apos;s About window shows it; spaces do not matter.</source>
        <extracomment>The table&apos;s role holding a row&apos;s fingerprint (the own key&apos;s row holds none).</extracomment>
        <translation>鍵のフィンガープリントではありません。フィンガープリントは 16 進数 64 桁（0–9、a–f）で、署名者の「バージョン情報」ウィンドウに表示されるものです。スペースの有無は問いません。</translation>
    </message>
    <message>
        <location line="+87"/>
        <source>Give the key a name: whose key it is.</source>
        <extracomment>The key added (a ``TrustedKey``), just before the dialog closes.</extracomment>
        <translation>鍵に名前を付けてください（誰の鍵かがわかる名前）。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>This name reads as this installation&apos;s own key. Name whose key it is.</source>
        <translation>この名前はこのインストール自身の鍵と読めます。誰の鍵かを名前にしてください。</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This is this installation&apos;s own key: its packs are trusted already.</source>
        <translation>これはこのインストール自身の鍵です。この鍵のパックはすでに信頼されています。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>This key is trusted already, as “%1”.</source>
        <translation>この鍵は「%1」としてすでに信頼されています。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The key was not added: %1</source>
        <translation>鍵は追加されませんでした: %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The list of trusted keys could not be saved: %1</source>
        <translation>信頼済みの鍵の一覧を保存できませんでした: %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Trust a signing key</source>
        <translation>署名鍵を信頼</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trust a key only after comparing its fingerprint with the one its owner reads to you from their program&apos;s Help &gt; About, by another channel: in person or by telephone. Packs it signs will then be shown as verified.</source>
        <translation>鍵を信頼するのは、そのフィンガープリントを、所有者が自分のプログラムの「ヘルプ &gt; バージョン情報」から読み上げるものと、別の手段（対面または電話）で照合してからにしてください。信頼した鍵で署名されたパックは検証済みと表示されます。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Fingerprint:</source>
        <translation>フィンガープリント(&amp;F):</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Name:</source>
        <translation>名前(&amp;N):</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Whose key it is, e.g. “Audit team, Lyon”</source>
        <translation>誰の鍵か（例:「リヨン監査チーム」）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Why the key was not added</source>
        <translation>鍵が追加されなかった理由</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Trust this key</source>
        <translation>この鍵を信頼</translation>
    </message>
    <message>
        <location line="+102"/>
        <source>This installation</source>
        <extracomment>The list changed (a key added or removed): a check shown elsewhere may be redone. Why the list cannot be read or changed (&quot;&quot; when it can).</extracomment>
        <translation>このインストール</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>The list of trusted keys cannot be read: %1</source>
        <translation>信頼済みの鍵の一覧を読み取れません: %1</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>This installation&apos;s own key is not listed: it has not made one yet, or this computer&apos;s keyring cannot be read.</source>
        <translation>このインストール自身の鍵は表示されていません。まだ作成されていないか、このコンピューターのキーリングを読み取れません。</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>No other key is trusted yet.</source>
        <translation>ほかに信頼している鍵はまだありません。</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>This installation&apos;s own key is always trusted.</source>
        <translation>このインストール自身の鍵は常に信頼されます。</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Remove a trusted key</source>
        <translation>信頼済みの鍵を削除</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stop trusting the key “%1”?</source>
        <translation>鍵「%1」の信頼を取り消しますか？</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Fingerprint %1. Packs it signed will be shown as signed by a key you do not trust.</source>
        <translation>フィンガープリント %1。この鍵で署名されたパックは、信頼していない鍵で署名されたものとして表示されます。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Remove</source>
        <translation>削除</translation>
    </message>
    <message>
        <location line="+35"/>
        <location line="+10"/>
        <source>Trusted keys</source>
        <translation>信頼済みの鍵</translation>
    </message>
    <message>
        <location line="-8"/>
        <source>Evidence packs signed by these keys are shown as verified. This installation&apos;s own key is always trusted. Add another key only after comparing its fingerprint with its owner&apos;s by another channel.</source>
        <translation>これらの鍵で署名された証跡パックは検証済みと表示されます。このインストール自身の鍵は常に信頼されます。ほかの鍵は、フィンガープリントを所有者のものと別の手段で照合してから追加してください。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add a key…</source>
        <translation>鍵を追加…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove…</source>
        <translation>削除…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Copy fingerprint</source>
        <translation>フィンガープリントをコピー</translation>
    </message>
</context>
<context>
    <name>TypedConfirm</name>
    <message>
        <location filename="../src/portal_admin/ui/widgets/typed_confirm.py" line="+74"/>
        <source>That is not the number of targets.</source>
        <translation>対象の件数と一致しません。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>%1 (%2): type %3 to confirm:</source>
        <translation>%1（%2）：確認のため %3 と入力:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 targets will change: type %1 to confirm:</source>
        <translation>%1 件の対象が変更されます。確認のため %1 と入力:</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Number of targets, to confirm</source>
        <translation>対象の件数（確認用）</translation>
    </message>
</context>
</TS>
